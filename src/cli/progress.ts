import type { AgentEvent } from '../agent/types.js';
import { costOf, describeCost } from '../model/cost.js';
import type { ModelPrice } from '../model/prices.js';

/** One stderr line per event: step, tool, short arguments, outcome, tokens and cost so far. */
export function formatEvent(event: AgentEvent, model: string, price: ModelPrice | null): string | null {
  switch (event.type) {
    case 'model':
      return `[step ${event.step}] model: ${event.toolCalls} tool call(s), tokens ${event.tokens.prompt + event.tokens.completion}, ${describeCost(costOf(event.tokens, model, price))}`;
    case 'tool':
      // `args` arrive already shortened by the loop.
      return `[step ${event.step}]   ${event.ok ? '✓' : '✗'} ${event.name} ${event.args}`;
    case 'warning':
      return `[step ${event.step}] warning: ${event.text.split('\n')[0]}`;
    case 'done':
      return `done: ${event.outcome.status} — ${event.outcome.reason} · ${describeCost(costOf(event.outcome.tokens, model, price))}`;
  }
}
