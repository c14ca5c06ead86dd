import type { BasePayload, PullRequestRef } from './payload-schemas.js';
import { repoRef } from './payload-helpers.js';
import type { CiFailure, TriggerContext, TriggerResult } from './types.js';

/**
 * A `ci_fix` job for a same-repository PR. No permission check (`authorize: false`): CI, not a
 * person, is the trigger, and whoever pushed a same-repository branch already had write access.
 * Title and body stay empty: the worker looks the PR up when it runs (it may have changed).
 */
export function ciFixJob(
  p: BasePayload,
  pr: PullRequestRef,
  ci: Omit<CiFailure, 'headRef' | 'ownPullRequest'>,
  sender: string,
  ctx: TriggerContext,
): TriggerResult {
  return {
    type: 'job',
    request: {
      kind: 'ci_fix',
      installationId: p.installation.id,
      repo: repoRef(p),
      number: pr.number,
      target: 'pull_request',
      title: '',
      body: '',
      sender,
      ci: {
        ...ci,
        checks: [...ci.checks].sort(),
        headRef: pr.head.ref,
        ownPullRequest: pr.head.ref.startsWith(ctx.branchPrefix),
      },
    },
    authorize: false,
  };
}

/** Fork PRs run untrusted code with our token in reach if we pushed to them: refused, visibly. */
export function forkRefusal(p: BasePayload, number: number, sender: string): TriggerResult {
  return {
    type: 'refuse',
    refusal: {
      installationId: p.installation.id,
      repo: repoRef(p),
      number,
      sender,
      code: 'fork',
      message:
        'CI failed on this pull request, but it comes from a fork: greenfix only fixes CI on branches of this repository. ' +
        'A maintainer can push the branch here, or comment `/agent retry` on an issue describing the failure.',
    },
  };
}
