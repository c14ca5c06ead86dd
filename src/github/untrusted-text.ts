/**
 * Text the model (or a test run) wrote goes into comments and PR bodies. There it must not ping
 * people or teams, close issues we were not asked to fix, or hide content from reviewers.
 */

const ZWSP = '\u200b';

/** `<!-- … -->`, and an unterminated `<!--` with everything after it (it would hide the rest). */
export function stripHtmlComments(text: string): string {
  return text.replace(/<!--[\s\S]*?(-->|$)/g, '');
}

/** `@user`, `@org/team` → `@\u200buser`: shown the same, notifies nobody. E-mail addresses stay. */
export function neutraliseMentions(text: string): string {
  return text.replace(/(^|[^\w`@])@(?=[A-Za-z0-9])/g, `$1@${ZWSP}`);
}

/** `fixes #12`, `closes owner/repo#3`, `resolved https://…/issues/4` lose their closing power. */
export function neutraliseClosingKeywords(text: string): string {
  return text.replace(
    /\b(close[sd]?|fix(?:e[sd])?|resolve[sd]?)(\s*:?\s+)(?=(?:[\w.-]+\/[\w.-]+)?#\d|https?:\/\/\S+\/(?:issues|pull)\/\d)/gi,
    `$1${ZWSP}$2`,
  );
}

/** All of the above, then clipped to `maxChars` (head kept: a summary's first lines matter most). */
export function untrustedMarkdown(text: string, maxChars: number): string {
  const safe = neutraliseClosingKeywords(neutraliseMentions(stripHtmlComments(text))).trim();
  if (safe.length <= maxChars) return safe;
  return `${safe.slice(0, Math.max(0, maxChars - 40)).trimEnd()}\n\n*[… ${safe.length - maxChars + 40} characters cut]*`;
}
