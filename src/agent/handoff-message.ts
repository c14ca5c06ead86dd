/** Words of a handoff summary the model is asked for, and the most kept (the rest is cut). */
export const HANDOFF_WORDS = 300;
export const HANDOFF_MAX_WORDS = 400;

/**
 * What the model reads in place of the compacted turns: its own summary, marked as a hint, since
 * only the tools say what the files and tests are now.
 */
export function handoffMessage(summary: string): string {
  return [
    '[handoff summary of the earlier turns, written when the context was full. It is a hint, not the truth: the true state of files and tests is what the tools say now (read_file, run_tests).]',
    summary,
  ].join('\n');
}

/** The summary as kept: trimmed, at most HANDOFF_MAX_WORDS words. */
export function capSummary(text: string): string {
  const words = text.trim().split(/\s+/);
  if (words.length <= HANDOFF_MAX_WORDS) return text.trim();
  return `${words.slice(0, HANDOFF_MAX_WORDS).join(' ')} […]`;
}
