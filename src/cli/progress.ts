import type { AgentEvent } from '../agent/types.js';

/** One stderr line per event: step, tool, short arguments, outcome, tokens. */
export function formatEvent(event: AgentEvent): string | null {
  switch (event.type) {
    case 'model':
      return `[step ${event.step}] model: ${event.toolCalls} tool call(s), tokens ${event.tokens.prompt + event.tokens.completion}`;
    case 'tool':
      // `args` arrive already shortened by the loop.
      return `[step ${event.step}]   ${event.ok ? '✓' : '✗'} ${event.name} ${event.args}`;
    case 'warning':
      return `[step ${event.step}] warning: ${event.text.split('\n')[0]}`;
    case 'compaction':
      return `[step ${event.step}] context full: ${event.replaced} earlier messages became a ${event.words}-word handoff summary`;
    case 'done':
      return `done: ${event.outcome.status} — ${event.outcome.reason}`;
  }
}
