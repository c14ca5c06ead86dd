/**
 * Head + tail clipping for anything shown to a model or a person.
 * Keeps the first and last parts, replaces the middle with a marker that says how much went.
 */
export function clipHeadTail(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const marker = (n: number) => `\n[${n} bytes elided]\n`;
  const room = Math.max(0, maxChars - marker(text.length).length);
  const head = Math.ceil(room * 0.4);
  const tail = room - head;
  const elided = Buffer.byteLength(text.slice(head, text.length - tail));
  return text.slice(0, head) + marker(elided) + (tail > 0 ? text.slice(text.length - tail) : '');
}

/** Cut each line longer than `maxLineChars`, saying how much of it went. */
export function cutLongLines(text: string, maxLineChars: number): string {
  return text
    .split('\n')
    .map((line) =>
      line.length <= maxLineChars ? line : `${line.slice(0, maxLineChars)} …[line cut: ${line.length - maxLineChars} more chars]`,
    )
    .join('\n');
}

/** The last `lines` lines of a text (the part of a test log that says what failed). */
export function lastLines(text: string, lines: number): string {
  const all = text.trimEnd().split('\n');
  return all.slice(Math.max(0, all.length - lines)).join('\n');
}
