import { estimateTokens } from '../src/model/estimate-tokens.js';
import type { ChatModel } from '../src/model/types.js';

export interface RecordingModel {
  model: ChatModel;
  /** Estimated tokens of every request, in order: what the loop actually sent. */
  readonly sent: number[];
}

/** Wraps a model to measure each request with the same estimate the context budget uses. */
export function recordTokens(inner: ChatModel): RecordingModel {
  const sent: number[] = [];
  return {
    sent,
    model: {
      name: inner.name,
      complete(request) {
        sent.push(estimateTokens(request.messages, request.tools));
        return inner.complete(request);
      },
    },
  };
}
