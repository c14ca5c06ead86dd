import { clipHeadTail } from '../util/clip.js';
import type { CheckRunOutput } from './types.js';
import { truncate } from '../util/truncate.js';

/** GitHub refuses a comment, issue or PR body of 65,536 characters or more; we stay below with room. */
export const MAX_BODY_CHARS = 65_000;
/** Check run output: summary and text are each limited to 65,535 characters; the title to 255 here. */
export const MAX_CHECK_SUMMARY_CHARS = 65_000;
export const MAX_CHECK_TEXT_CHARS = 65_000;
export const MAX_CHECK_TITLE_CHARS = 255;

/** Last line of defence: whatever a renderer produced, it fits. */
export function fitBody(body: string): string {
  return clipHeadTail(body, MAX_BODY_CHARS);
}

export function fitCheckRunOutput(output: CheckRunOutput): CheckRunOutput {
  const title = truncate(output.title, MAX_CHECK_TITLE_CHARS);
  return {
    title,
    summary: clipHeadTail(output.summary, MAX_CHECK_SUMMARY_CHARS),
    ...(output.text !== undefined ? { text: clipHeadTail(output.text, MAX_CHECK_TEXT_CHARS) } : {}),
  };
}
