import { count } from './markdown-text.js';
import type { RunLog } from './run-log.js';

/** "12,000 tokens (80% of the prompt from the provider's cache)", "estimated" when an endpoint reported no usage. */
export function tokensFact(log: RunLog, tokens: number): string {
  const { prompt, cachedPrompt, estimated } = log.usage;
  const notes = [
    ...(cachedPrompt > 0 && prompt > 0 ? [`${Math.round((cachedPrompt / prompt) * 100)}% of the prompt from the provider's cache`] : []),
    ...(estimated ? ['estimated: the endpoint reported no usage'] : []),
  ];
  return `${count(tokens)} tokens${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`;
}
