/**
 * `text` in at most `maxChars` characters: when longer, cut and ended with '…' (one character),
 * never splitting a surrogate pair. For one-line texts (titles, subjects, summaries); long
 * outputs keep their head and tail instead (`clipHeadTail`).
 */
export function truncate(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let cut = Math.max(0, maxChars - 1);
  const last = text.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut -= 1;
  return `${text.slice(0, cut)}…`;
}
