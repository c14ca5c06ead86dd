import { neutralise } from '../util/neutralise.js';


/**
 * Markdown from untrusted text, neutralised, then clipped to `maxChars` (head kept: a summary's
 * first lines matter most). The raw text is cut before it is neutralised, so a cut can never
 * leave half a code span open with a live mention after it.
 */
export function untrustedMarkdown(text: string, maxChars: number): string {
  const whole = neutralise(text, { for: 'markdown' }).trim();
  if (whole.length <= maxChars) return whole;
  const raw = text.trim();
  let keep = Math.max(0, maxChars - 40);
  for (;;) {
    const cut = raw.slice(0, keep);
    const safe = neutralise(cut, { for: 'markdown' }).trimEnd();
    const notice = `\n\n*[… ${raw.length - cut.length} characters cut]*`;
    if (safe.length + notice.length <= maxChars || keep === 0) return `${safe}${notice}`.slice(0, Math.max(maxChars, 0));
    keep = Math.max(0, keep - (safe.length + notice.length - maxChars));
  }
}
