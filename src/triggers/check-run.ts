import * as z from 'zod';
import { ciFixJob, forkRefusal } from './ci-job.js';
import { BasePayload, PullRequestRef } from './payload-schemas.js';
import { FAILED_CONCLUSIONS, forkPullRequest, ignored, parsePayload, sameRepoPullRequest } from './payload-helpers.js';
import type { TriggerContext, TriggerResult } from './types.js';

/** GitHub Actions' check runs are answered through `workflow_run` instead: one job per workflow, not per job. */
export const GITHUB_ACTIONS_SLUG = 'github-actions';

const CheckRunPayload = BasePayload.extend({
  check_run: z.object({
    id: z.number().int(),
    name: z.string(),
    head_sha: z.string(),
    conclusion: z.string().nullish(),
    app: z.object({ id: z.number().int(), slug: z.string().nullish() }).nullish(),
    pull_requests: z.array(PullRequestRef),
  }),
});

/** A failed (or timed-out) check run of another CI app on a PR of this repository → a CI fix. */
export function checkRunTrigger(action: string, payload: unknown, ctx: TriggerContext): TriggerResult {
  if (action !== 'completed') return ignored(`check_run.${action} is not a trigger`);
  const parsed = parsePayload('check_run', CheckRunPayload, payload);
  if (!parsed.ok) return parsed.result;
  const p = parsed.data;
  const run = p.check_run;
  if (!FAILED_CONCLUSIONS.has(run.conclusion ?? '')) return ignored(`check run concluded ${run.conclusion ?? 'without a conclusion'}`);
  if (run.app?.id === ctx.appId) return ignored("greenfix's own check runs never trigger a fix");
  if (run.app?.slug === GITHUB_ACTIONS_SLUG) return ignored('GitHub Actions failures are handled through workflow_run');
  const sender = run.app?.slug ?? p.sender.login;
  const pr = sameRepoPullRequest(run.pull_requests, p.repository.id);
  if (pr) return ciFixJob(p, pr, { headSha: run.head_sha, checks: [run.name], checkRunIds: [run.id] }, sender, ctx);
  const fork = forkPullRequest(run.pull_requests, p.repository.id);
  if (fork) return forkRefusal(p, fork.number, sender);
  return ignored('not on a pull request of this repository');
}
