import type { ContextLimits } from '../src/agent/context.js';
import { estimateTokens } from '../src/model/estimate-tokens.js';
import { toWireMessages, toWireTools } from '../src/model/openai-format.js';
import { PROFILES } from '../src/model/provider-profile.js';
import type { ChatModel, ChatRequest } from '../src/model/types.js';
import type { Sandbox } from '../src/sandbox/types.js';
import { CLI_CONTEXT } from './scripted-run.js';
import { withScriptedSessions } from './scripted-sessions.js';

/** Where the tool schemas sit in the request body: after the messages (before issue 23) or first (now). */
export type BodyLayout = 'messages-first' | 'tools-first';

export interface PrefixVariant {
  layout: BodyLayout;
  context: ContextLimits;
}

export interface PrefixFigures {
  /** Estimated tokens of every request sent. */
  sentTokens: number;
  requestBytes: number;
  /** Bytes each request shares from its start with the one before it: what a prefix cache could serve. */
  stablePrefixBytes: number;
  /** stablePrefixBytes / requestBytes. */
  share: number;
}

export interface PrefixCacheBudget {
  maxTokens: number;
  /** The request before issue 23: messages first, results stubbed one at a time. */
  before: PrefixFigures;
  /** Now: tool schemas first, results stubbed `stubChunk` at a time. */
  after: PrefixFigures;
}

export interface PrefixCacheBench {
  steps: number;
  files: number;
  budgets: PrefixCacheBudget[];
}

export interface PrefixCacheOptions {
  sandbox: Sandbox;
  steps?: number;
  files?: number;
  /** Context budgets to measure, each before and after. Default: the CLI's. */
  budgets?: readonly ContextLimits[];
}

/**
 * Tokens sent over a scripted session and the share of request bytes a provider's prefix cache
 * could serve (OpenAI, DeepSeek and Gemini cache a prompt's repeated start automatically): the
 * same session, same repository, two request layouts. Bytes are of the chat-completions body as
 * OpenAIChatModel builds it.
 */
export async function benchPrefixCache(options: PrefixCacheOptions): Promise<PrefixCacheBench> {
  const { sandbox, steps = 30, files = 40, budgets = [CLI_CONTEXT] } = options;
  return withScriptedSessions({ prefix: 'gf-bench-prefix-', sandbox, steps, files }, async (sessions) => {
    const session = async (name: string, variant: PrefixVariant): Promise<PrefixFigures> => {
      let recorder: ReturnType<typeof recordBodies> | undefined;
      await sessions.run(name, variant.context, (model) => {
        recorder = recordBodies(model, variant.layout);
        return recorder.model;
      });
      return recorder!.figures();
    };
    const figures: PrefixCacheBudget[] = [];
    for (const [i, budget] of budgets.entries()) {
      const before = await session(`before-${i}`, { layout: 'messages-first', context: { ...budget, stubChunk: 1 } });
      const after = await session(`after-${i}`, { layout: 'tools-first', context: { ...budget, stubChunk: budget.stubChunk ?? CLI_CONTEXT.stubChunk ?? 1 } });
      figures.push({ maxTokens: budget.maxTokens, before, after });
    }
    return { steps, files, budgets: figures };
  });
}

/** Wraps a model to serialise each request as its wire body and measure what it shares with the one before. */
export function recordBodies(inner: ChatModel, layout: BodyLayout): { model: ChatModel; figures: () => PrefixFigures } {
  let previous = '';
  const totals = { sentTokens: 0, requestBytes: 0, stablePrefixBytes: 0 };
  return {
    model: {
      name: inner.name,
      complete(request) {
        const body = wireBody(request, layout);
        totals.sentTokens += estimateTokens(request.messages, request.tools);
        totals.requestBytes += Buffer.byteLength(body, 'utf8');
        totals.stablePrefixBytes += Buffer.byteLength(body.slice(0, commonPrefix(previous, body)), 'utf8');
        previous = body;
        return inner.complete(request);
      },
    },
    figures: () => ({ ...totals, share: totals.requestBytes === 0 ? 0 : totals.stablePrefixBytes / totals.requestBytes }),
  };
}

function wireBody(request: ChatRequest, layout: BodyLayout): string {
  const tools = request.tools.length > 0 ? { tools: toWireTools(request.tools), tool_choice: 'auto' } : {};
  const messages = { messages: toWireMessages(request.messages, PROFILES.generic) };
  return JSON.stringify(layout === 'tools-first' ? { model: 'm', ...tools, ...messages } : { model: 'm', ...messages, ...tools });
}

function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}
