import type { AgentEvent, Tokens } from '../agent/types.js';
import { costOf, describeCost } from '../model/cost.js';
import type { ModelPrice } from '../model/prices.js';

/** One stderr line per event: step, tool, short arguments, outcome, tokens and cost so far. */
export function formatEvent(event: AgentEvent, model?: string, price: ModelPrice | null = null): string | null {
  // Without a model name (callers that do not price) the lines carry no cost.
  const cost = (tokens: Tokens) => (model === undefined ? '' : describeCost(costOf(tokens, model, price)));
  switch (event.type) {
    case 'model':
      return `[step ${event.step}] model: ${event.toolCalls} tool call(s), tokens ${event.tokens.prompt + event.tokens.completion}${model === undefined ? '' : `, ${cost(event.tokens)}`}`;
    case 'tool':
      // `args` arrive already shortened by the loop.
      return `[step ${event.step}]   ${event.ok ? '✓' : '✗'} ${event.name} ${event.args}`;
    case 'warning':
      return `[step ${event.step}] warning: ${event.text.split('\n')[0]}`;
    case 'compaction':
      return `[step ${event.step}] context full: ${event.replaced} earlier messages became a ${event.words}-word handoff summary`;
    case 'done':
      return `done: ${event.outcome.status} — ${event.outcome.reason}${model === undefined ? '' : ` · ${cost(event.outcome.tokens)}`}`;
  }
}
