import { splitMarkdown } from './markdown-code.js';

/**
 * The one place that decides what untrusted text (an issue title, the model's summary, a test's
 * output, a command word) may do where greenfix writes it: comments, PR bodies and titles, check
 * runs, commit messages. It must not ping people or teams, close issues greenfix was not asked to
 * fix, load a URL when someone views it, or hide content from reviewers.
 *
 * Every rule inserts a zero-width space (shown as nothing, breaks the syntax) or removes text, so
 * what a reader sees stays what was written. In Markdown, code that GitHub is sure to render as
 * code (see markdown-code.ts) is left verbatim, except that closing keywords lose their power
 * everywhere; in a commit message (plain text) every rule applies everywhere.
 */

const ZWSP = '\u200b';

export type NeutraliseTarget = 'markdown' | 'commit';

export interface NeutraliseOptions {
  for: NeutraliseTarget;
}

/** The text with nothing live in it, for a Markdown body or a commit message. */
export function neutralise(text: string, options: NeutraliseOptions): string {
  const normal = text.replace(/\r\n?/g, '\n');
  if (options.for === 'commit') return neutraliseClosingKeywords(neutraliseProse(stripControls(normal)));
  const parts = splitMarkdown(stripHtmlComments(stripBidi(normal)));
  return neutraliseClosingKeywords(parts.map((p) => (p.code ? p.text : neutraliseProse(p.text))).join(''));
}

/** Mentions, character references, HTML tags and images, in text that renders as prose. */
function neutraliseProse(text: string): string {
  return neutraliseImages(neutraliseHtml(neutraliseEntities(neutraliseMentions(text))));
}

/** `<!-- … -->`, and an unterminated `<!--` with everything after it (it would hide the rest). */
export function stripHtmlComments(text: string): string {
  return text.replace(/<!--[\s\S]*?(-->|$)/g, '');
}

/**
 * `@user`, `@org/team`, `@@user`, `` `@user `` → `@\u200buser`: shown the same, notifies nobody.
 * Any `@` before a letter or digit counts unless a word character comes first (e-mail addresses,
 * which GitHub does not treat as mentions either).
 */
export function neutraliseMentions(text: string): string {
  return text.replace(/(?<![A-Za-z0-9_])@(?=[A-Za-z0-9])/g, `@${ZWSP}`);
}

/**
 * `&#64;user`, `&commat;`, `&#35;1`: a character reference renders as its character, so it could
 * spell a mention, a keyword or a reference. `&\u200b#64;` is shown as written and means nothing.
 */
function neutraliseEntities(text: string): string {
  return text.replace(/&(?=#?[A-Za-z0-9]{1,32};)/g, `&${ZWSP}`);
}

/**
 * `<` before a tag name (or `/`, `!`, `?`) → `<\u200b`: no raw HTML tag and no HTML block can
 * start there (CommonMark and HTML alike need the name right after `<`), so `<img src>`,
 * `<picture><source srcset>`, `<video poster>`, `<iframe>` load nothing and show as text.
 * Autolinks (`<https://…>`) become text, which GitHub still links (it does not fetch a link).
 */
function neutraliseHtml(text: string): string {
  return text.replace(/<(?=[A-Za-z/!?])/g, `<${ZWSP}`);
}

/**
 * `![alt](url)`, `![alt][ref]`, `![ref]` → `!\u200b[alt](url)`: a link, which a reader may
 * click, instead of an image GitHub fetches (through its proxy) on every view.
 */
function neutraliseImages(text: string): string {
  return text.replace(/!(?=\[)/g, `!${ZWSP}`);
}

/**
 * `fixes #12`, `closes owner/repo#3`, `resolves: #2`, `fixed https://…/issues/4`, with a `\#` or
 * a link in the way too, lose their closing power (GitHub needs whitespace or `:` only between).
 */
export function neutraliseClosingKeywords(text: string): string {
  return text.replace(
    /\b(close[sd]?|fix(?:e[sd])?|resolve[sd]?)(?=[\s:]*\[?\s*(?:(?:[\w.-]+\/[\w.-]+)?\\?#\d|https?:\/\/\S+\/(?:issues|pull)\/\d))/gi,
    `$1${ZWSP}`,
  );
}

/** Terminal control characters (ANSI escapes in `git log`), except tab and newline. */
function stripControls(text: string): string {
  return stripBidi(text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, ''));
}

/** Bidirectional overrides and isolates (Trojan Source): text must read as it is stored. */
function stripBidi(text: string): string {
  return text.replace(/[\u202a-\u202e\u2066-\u2069]/g, '');
}
