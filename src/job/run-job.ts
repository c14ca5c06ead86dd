import { costOf, costText, usdOf } from '../model/cost.js';
import type { Tokens } from '../agent/types.js';
import { loadRepoConfig } from '../config/load-repo-config.js';
import type { RepoConfig } from '../config/repo-config.js';
import { CONFIG_ERRORS_MARKER, renderConfigProblems } from '../config/render-config-problems.js';
import { newJobReport } from '../github/report.js';
import type { GitHost } from '../github/types.js';
import type { Claimed, Job } from '../queue/types.js';
import { subjectKey } from '../triggers/types.js';
import { mirrorDir } from '../workspace/mirror.js';
import { classifyJobError } from './classify-job-error.js';
import { ciGuard } from './ci-guard.js';
import { jobFiles, makeJobDir, openJobState, removeJobFiles, type JobFiles, type JobStateFile } from './files.js';
import type { JobEnv } from './env.js';
import { closedIssueNote } from './closed-note.js';
import { JobReporter } from './reporter.js';
import { planTarget, type JobTarget } from './target.js';
import { fixOnWorkspace } from './fix.js';
import { doctorJob } from './doctor.js';
import { prLimitWait } from './pr-limits.js';
import { reserveBudget } from './reserve-budget.js';
import type { JobRunResult, WorkerAbortReason } from '../worker/worker-types.js';
import { errorText } from '../util/error-text.js';

/**
 * One job, start to end (DESIGN §1): report → plan → workspace → agent → gate → publish →
 * report. Every phase either resumes from saved state or repeats idempotently, so running a
 * job again after a crash continues it. Failures end in a status comment that says why.
 */
export async function runJob(env: JobEnv, claimed: Claimed, signal: AbortSignal): Promise<JobRunResult> {
  const { job } = claimed;
  const { request } = job;
  const started = env.now();
  const host = await env.hostFor(request);
  const loaded = await loadRepoConfig(() => env.readConfig(request));
  const maxSteps = loaded.ok ? loaded.config.max_steps : 0;
  const reporter = new JobReporter({
    host,
    report: newJobReport(job.id, request.kind, request.number, maxSteps),
    now: env.now,
    minIntervalMs: env.progressIntervalMs,
    onError: (error) => env.log.warn({ jobId: job.id, err: errorText(error) }, 'status comment update failed'),
    ...(request.target === 'issue' ? { finishNote: () => closedIssueNote(host, request.number) } : {}),
    describeCost: (tokens) => costText(costOf(tokens, env.model.name, env.price ?? null)),
  });
  const files = jobFiles(env.workdir, job.id);
  const finished = (outcome: string, result: JobRunResult, tokens: Tokens = reporter.usage, steps = reporter.report.steps): JobRunResult => {
    const price = env.price ?? null;
    const costUsd = price ? usdOf(tokens, price) : null;
    const repo = `${request.repo.owner}/${request.repo.name}`;
    env.onFinished?.({ kind: request.kind, repo, outcome, seconds: (env.now() - started) / 1000, tokens, costUsd, steps });
    return costUsd !== null && costUsd > 0 ? { ...result, spendUsd: costUsd } : result;
  };

  if (!loaded.ok) {
    await host.upsertComment(request.number, CONFIG_ERRORS_MARKER, renderConfigProblems(loaded.problems));
    await reporter.finish({ status: 'failed', sentence: '`.github/greenfix.yml` is not valid, so nothing was run; the comment above lists every problem.' });
    return finished('config_error', { type: 'failed', message: 'invalid repository config', retryable: false });
  }
  try {
    makeJobDir(env.workdir, files);
    if (request.kind === 'doctor') {
      const { ready } = await doctorJob({ env, job, config: loaded.config, host, files, signal });
      await removeJobFiles(files, mirrorDir(env.workdir, request.repo.id));
      return finished(ready ? 'ready' : 'not_ready', { type: 'succeeded', result: { status: ready ? 'ready' : 'not_ready' } });
    }
    const state = openJobState(files);
    const target = state.get('job') ?? (await decideTarget(env, job, loaded.config, host, state, reporter));
    if (!target) return finished('refused', { type: 'succeeded', result: { status: 'refused' } });
    // After the guards (a job they refuse is told so at once), before the first model call: a job
    // that would open a PR over the repository's `limits` waits, then the budget is reserved.
    const wait = await prLimitWait({ request, branch: target.branch, config: loaded.config, host, queue: env.queue, now: env.now() });
    if (wait) {
      env.log.info({ jobId: job.id, limit: wait.limit, count: wait.count, max: wait.max, runAfter: wait.runAfter }, 'job waits: PR limit reached');
      await reporter.phase('queued', 'running', `waiting: ${wait.sentence}`);
      return { type: 'deferred', runAfter: wait.runAfter, reason: wait.sentence };
    }
    const budget = await reserveBudget(env, claimed, loaded.config, reporter);
    if (!budget.run) return budget.outcome === 'deferred' ? budget.result : finished(budget.outcome, budget.result);
    const result = await fixOnWorkspace({ env, job, config: budget.config, host, files, state, target, reporter, signal });
    await removeJobFiles(files, mirrorDir(env.workdir, request.repo.id));
    return finished(result.status, { type: 'succeeded', result: { status: result.status } }, result.outcome.tokens, result.outcome.steps);
  } catch (error) {
    return finished('error', await endWithError(env, job, files, reporter, signal, error));
  }
}

/** Plans the target once, with its guards; null when the job ends here (refused or skipped). */
async function decideTarget(env: JobEnv, job: Job, config: RepoConfig, host: GitHost, state: JobStateFile, reporter: JobReporter): Promise<JobTarget | null> {
  const { request } = job;
  const pr = request.target === 'pull_request' ? await host.getPullRequest(request.number) : null;
  const plan = planTarget(request, config, pr);
  if (plan.type !== 'target') {
    const sentence = plan.type === 'refuse' ? `greenfix did not run: ${plan.message}.` : `Nothing to do: ${plan.reason}.`;
    await reporter.finish({ status: plan.type === 'refuse' ? 'failed' : 'cancelled', sentence });
    return null;
  }
  const earlier = await env.queue.listBySubject(subjectKey(request.repo, request.number));
  const stop = await ciGuard(request, pr?.baseRef ?? plan.target.prBase, config, host, earlier, job.id);
  if (stop) {
    await reporter.finish({ status: 'cancelled', sentence: stop });
    return null;
  }
  state.set('job', plan.target);
  return plan.target;
}

async function endWithError(env: JobEnv, job: Job, files: JobFiles, reporter: JobReporter, signal: AbortSignal, error: unknown): Promise<JobRunResult> {
  const reason = signal.aborted ? (signal.reason as WorkerAbortReason | undefined) : undefined;
  if (reason?.kind === 'shutdown' || reason?.kind === 'lease_lost') {
    // Not the job's end: another worker (or this one, restarted) resumes it from its files.
    return { type: 'failed', message: `interrupted (${reason.kind})`, retryable: true };
  }
  if (signal.aborted) {
    await reporter.flush();
    await reporter.finish({ status: 'cancelled', sentence: `Cancelled: ${reason?.kind === 'cancelled' ? reason.reason : 'stopped'}.` }).catch(() => undefined);
    await cleanUp(env, job, files);
    return { type: 'cancelled' };
  }
  const verdict = classifyJobError(error);
  const last = job.attempts >= job.maxAttempts;
  env.log.error({ jobId: job.id, err: errorText(error), retryable: verdict.retryable, attempt: job.attempts }, 'job failed');
  const sentence = verdict.retryable && !last ? `${verdict.sentence} (attempt ${job.attempts} of ${job.maxAttempts}; greenfix will try again)` : verdict.sentence;
  await reporter.flush();
  await reporter.finish({ status: 'failed', sentence }).catch((e: unknown) => env.log.warn({ jobId: job.id, err: errorText(e) }, 'final status comment failed'));
  if (!verdict.retryable || last) await cleanUp(env, job, files);
  return { type: 'failed', message: verdict.sentence, retryable: verdict.retryable };
}

/** Best effort after a failure: the job's outcome is already decided and reported. */
async function cleanUp(env: JobEnv, job: Job, files: JobFiles): Promise<void> {
  await removeJobFiles(files, mirrorDir(env.workdir, job.request.repo.id)).catch((error: unknown) =>
    env.log.warn({ jobId: job.id, err: errorText(error) }, 'could not remove the job worktree'),
  );
}
