import { fitBody } from './limits.js';
import { codeSpan } from './markdown.js';
import { untrustedMarkdown } from './untrusted-text.js';

/** Codes the app and runner use (Refusal.code); any other code renders its message. */
export type RefusalCode = 'unauthorized' | 'fork' | 'ci_limit' | 'unknown_command' | 'base_failing' | 'humans_opt_in' | 'closed';

export interface RefusalDetails {
  /** Who asked: greeted by name (the one mention a refusal makes). */
  sender?: string;
  /** A specific explanation from the caller; replaces the default text for the code. */
  message?: string;
  permission?: string;
  attempts?: number;
  maxAttempts?: number;
  /** Failing check names (base_failing). */
  checks?: readonly string[];
  baseRef?: string;
  command?: string;
}

const RETRY = 'Comment `/agent retry [instructions]` to ask again.';

function defaultText(code: string, d: RefusalDetails): string {
  switch (code as RefusalCode) {
    case 'unauthorized':
      return `greenfix only acts for people with write, maintain or admin permission on this repository${d.permission ? ` (yours: ${d.permission})` : ''}, so I did not start anything.`;
    case 'fork':
      return 'This pull request comes from a fork, and greenfix only pushes to branches of this repository, so I will not fix its CI. A maintainer can push the branch here and ask again.';
    case 'ci_limit':
      return `I tried to fix CI on this pull request ${d.attempts ?? d.maxAttempts ?? 'the maximum number of'} times${d.maxAttempts ? ` (the limit is ${d.maxAttempts})` : ''} and stop here. ${RETRY}`;
    case 'unknown_command':
      return `I don't know the command ${codeSpan(d.command ?? '/agent')}. I understand ${codeSpan('/agent retry [instructions]')} and ${codeSpan('/agent cancel')}.`;
    case 'base_failing': {
      const checks = (d.checks ?? []).map(codeSpan).join(', ') || 'the same checks';
      return `${checks} also fail on ${d.baseRef ? codeSpan(d.baseRef) : 'the base branch'}, so the failure is not this pull request's doing; I am not trying to fix it here.`;
    }
    case 'humans_opt_in':
      return 'Fixing CI on pull requests opened by people is off in this repository (`autofix.humans` in `.github/greenfix.yml`).';
    case 'closed':
      return 'This is closed, so I did not start anything.';
    default:
      return 'I did not start anything.';
  }
}

/** A polite, specific answer to a trigger greenfix will not act on (posted once per cause). */
export function renderRefusal(code: string, details: RefusalDetails): string {
  const greeting = details.sender && /^[A-Za-z0-9-]+(\[bot\])?$/.test(details.sender) ? `@${details.sender} ` : '';
  const text = details.message ? untrustedMarkdown(details.message, 20_000) : defaultText(code, details);
  return fitBody(`👋 ${greeting}${text}\n\n<sub>greenfix · ${code.replace(/[^\w-]/g, '_')}</sub>`);
}
