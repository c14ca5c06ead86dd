import * as z from 'zod';
import { agentCommandHelp, parseAgentCommand } from './agent-command.js';
import { BasePayload, Issue } from './payload-schemas.js';
import { capBody, closedRefusal, ignored, isBot, isSelf, parsePayload, repoRef } from './payload-helpers.js';
import type { TriggerContext, TriggerResult } from './types.js';

const IssueCommentPayload = BasePayload.extend({
  issue: Issue,
  comment: z.object({ body: z.string().nullish() }),
});

/**
 * `/agent retry [instructions]` and `/agent cancel` on an issue or a PR (GitHub sends PR comments
 * as issue comments, with `issue.pull_request` set). Greenfix's own comments explain how to retry,
 * so its own events are ignored before anything is parsed. Every answer, a refusal too, needs
 * the sender's permission: commands are for collaborators (write, maintain, admin) only.
 */
export function issueCommentTrigger(action: string, payload: unknown, ctx: TriggerContext): TriggerResult {
  if (action !== 'created') return ignored(`issue_comment.${action} is not a trigger`);
  const parsed = parsePayload('issue_comment', IssueCommentPayload, payload);
  if (!parsed.ok) return parsed.result;
  const p = parsed.data;
  if (isSelf(p.sender, ctx)) return ignored('greenfix ignores its own events');
  const command = parseAgentCommand(p.comment.body ?? '');
  if (!command) return ignored('the comment is not an /agent command');
  if (isBot(p.sender)) return ignored(`bots never run /agent commands (${p.sender.login})`);

  const target = p.issue.pull_request ? 'pull_request' : 'issue';
  const base = { installationId: p.installation.id, repo: repoRef(p), number: p.issue.number, sender: p.sender.login };
  switch (command.kind) {
    case 'cancel':
      return { type: 'cancel', request: { ...base, target, reason: '/agent cancel', explicit: true }, authorize: true };
    case 'unknown':
      return { type: 'refuse', refusal: { ...base, code: 'unknown_command', message: agentCommandHelp(command.word) }, authorize: true };
    case 'doctor':
      return { type: 'job', request: { ...base, kind: 'doctor', target, title: p.issue.title, body: '' }, authorize: true };
    case 'retry':
      if (p.issue.state === 'closed') return asCommand(closedRefusal(base, target));
      return {
        type: 'job',
        request: {
          ...base,
          kind: 'retry',
          target,
          title: p.issue.title,
          body: capBody(p.issue.body),
          ...(command.instructions !== undefined ? { instructions: command.instructions } : {}),
        },
        authorize: true,
      };
  }
}

/** A refusal of a command: answered only once the sender's permission is known. */
function asCommand(result: TriggerResult): TriggerResult {
  return result.type === 'refuse' ? { ...result, authorize: true } : result;
}
