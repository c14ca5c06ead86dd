import * as z from 'zod';
import { BasePayload } from './payload-schemas.js';
import { ignored, isSelf, parsePayload, repoRef } from './payload-helpers.js';
import type { TriggerContext, TriggerResult } from './types.js';

const PullRequestPayload = BasePayload.extend({
  pull_request: z.object({ number: z.number().int(), merged: z.boolean().nullish(), merged_at: z.string().nullish() }),
});

/**
 * `pull_request.closed` (merged or not) cancels what runs for that PR: its branch is done with.
 * A merge is also recorded, for the cost per merged PR (the store knows which PRs greenfix opened).
 */
export function pullRequestTrigger(action: string, payload: unknown, ctx: TriggerContext): TriggerResult {
  if (action !== 'closed') return ignored(`pull_request.${action} is not a trigger`);
  const parsed = parsePayload('pull_request', PullRequestPayload, payload);
  if (!parsed.ok) return parsed.result;
  const p = parsed.data;
  if (isSelf(p.sender, ctx)) return ignored('greenfix ignores its own events');
  return {
    type: 'cancel',
    request: {
      installationId: p.installation.id,
      repo: repoRef(p),
      number: p.pull_request.number,
      target: 'pull_request',
      sender: p.sender.login,
      reason: 'the pull request was closed',
      explicit: false,
    },
    authorize: false,
    ...(p.pull_request.merged === true ? { merged: { at: mergedAt(p.pull_request.merged_at) } } : {}),
  };
}

function mergedAt(text: string | null | undefined): number | null {
  const at = text ? Date.parse(text) : Number.NaN;
  return Number.isFinite(at) ? at : null;
}
