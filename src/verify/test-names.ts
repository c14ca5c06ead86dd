/** "a, b, c and 4 more": test ids in a sentence, at most `max` of them. */
export function listNames(ids: readonly string[], max = 10): string {
  const shown = ids.slice(0, max).join(', ');
  return ids.length > max ? `${shown} and ${ids.length - max} more` : shown;
}
