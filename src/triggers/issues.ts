import * as z from 'zod';
import { BasePayload, Issue } from './payload-schemas.js';
import { capBody, closedRefusal, ignored, isBot, isSelf, parsePayload, repoRef } from './payload-helpers.js';
import { sameLabel } from './config-gate.js';
import type { TriggerContext, TriggerResult } from './types.js';

const IssuesPayload = BasePayload.extend({
  issue: Issue,
  label: z.object({ name: z.string() }).nullish(),
});

function isOurLabel(label: { name: string } | null | undefined, ctx: TriggerContext): boolean {
  return label != null && sameLabel(label.name, ctx.label);
}

/**
 * `issues.labeled` with our label starts a fix; `unlabeled` (our label) and `closed` cancel it.
 * Removing a label needs triage rights, so that cancel is not checked; closing is checked (an
 * issue's author may close it, whoever they are).
 */
export function issuesTrigger(action: string, payload: unknown, ctx: TriggerContext): TriggerResult {
  if (action !== 'labeled' && action !== 'unlabeled' && action !== 'closed') {
    return ignored(`issues.${action} is not a trigger`);
  }
  const parsed = parsePayload('issues', IssuesPayload, payload);
  if (!parsed.ok) return parsed.result;
  const p = parsed.data;
  const base = { installationId: p.installation.id, repo: repoRef(p), number: p.issue.number, sender: p.sender.login };
  if (action === 'closed') {
    // Anyone may close their own issue; only a closer with write access (or greenfix, or an app,
    // which needs the installation's issues permission to close others' issues) stops the job.
    const trusted = isSelf(p.sender, ctx) || isBot(p.sender);
    return { type: 'cancel', request: { ...base, target: 'issue', reason: 'the issue was closed', explicit: false }, authorize: !trusted };
  }
  if (isSelf(p.sender, ctx)) return ignored('greenfix ignores its own events');
  if (!isOurLabel(p.label, ctx)) return ignored(`label is not \`${ctx.label}\``);
  if (action === 'unlabeled') {
    return {
      type: 'cancel',
      request: { ...base, target: 'issue', reason: `the \`${ctx.label}\` label was removed`, explicit: false },
      authorize: false,
    };
  }
  if (isBot(p.sender)) return ignored(`bots never start a fix (${p.sender.login})`);
  if (p.issue.state === 'closed') return closedRefusal(base, 'issue');
  return {
    type: 'job',
    request: { ...base, kind: 'issue', target: 'issue', title: p.issue.title, body: capBody(p.issue.body) },
    authorize: true,
  };
}
