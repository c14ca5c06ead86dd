import * as z from 'zod';
import { ciFixJob, forkRefusal } from './ci-job.js';
import { BasePayload, PullRequestRef } from './payload-schemas.js';
import { FAILED_CONCLUSIONS, forkPullRequest, ignored, parsePayload, sameRepoPullRequest } from './payload-helpers.js';
import type { TriggerContext, TriggerResult } from './types.js';

const WorkflowRunPayload = BasePayload.extend({
  workflow_run: z.object({
    id: z.number().int(),
    name: z.string().nullish(),
    head_sha: z.string(),
    conclusion: z.string().nullish(),
    /** null when the fork was deleted. */
    head_repository: z.object({ id: z.number().int() }).nullish(),
    pull_requests: z.array(PullRequestRef),
  }),
});

/**
 * A failed GitHub Actions workflow run on a PR head → a CI fix; on a fork → a refusal. GitHub often
 * sends fork runs with an empty `pull_requests`: the refusal's `number` is then 0 and the caller
 * looks the PR up by head SHA before answering (or drops the refusal if there is none).
 */
export function workflowRunTrigger(action: string, payload: unknown, ctx: TriggerContext): TriggerResult {
  if (action !== 'completed') return ignored(`workflow_run.${action} is not a trigger`);
  const parsed = parsePayload('workflow_run', WorkflowRunPayload, payload);
  if (!parsed.ok) return parsed.result;
  const p = parsed.data;
  const run = p.workflow_run;
  if (!FAILED_CONCLUSIONS.has(run.conclusion ?? '')) return ignored(`workflow run concluded ${run.conclusion ?? 'without a conclusion'}`);
  const sender = p.sender.login;
  if (run.head_repository?.id !== p.repository.id) {
    const pr = forkPullRequest(run.pull_requests, p.repository.id) ?? run.pull_requests[0];
    return forkRefusal(p, pr?.number ?? 0, sender);
  }
  const pr = sameRepoPullRequest(run.pull_requests, p.repository.id);
  if (!pr) return ignored('not on a pull request of this repository');
  const check = run.name || `workflow run ${run.id}`;
  return ciFixJob(p, pr, { headSha: run.head_sha, checks: [check], checkRunIds: [], workflowRunId: run.id }, sender, ctx);
}
