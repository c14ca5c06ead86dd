/** A cost as reports carry it: the worded amount ("$0.84" or "cost unknown (no price for m)"). */
export interface CostText {
  text: string;
  /** False: `text` says the cost is unknown, and no sentence may put a number to it. */
  known: boolean;
}

/**
 * "This attempt cost $0.84 and produced no pull request." / "This attempt produced no pull
 * request: cost unknown (no price for m)." — the one sentence shape of every report.
 */
export function costSentence(cost: CostText, subject: string, tail?: string): string {
  if (cost.known) return `${subject} cost ${cost.text}${tail ? ` and ${tail}` : ''}.`;
  return `${subject}${tail ? ` ${tail}` : ''}: ${cost.text}.`;
}
