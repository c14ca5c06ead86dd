import { join } from 'node:path';
import { setupCommand, type RepoConfig } from '../config/repo-config.js';
import { jobSetupSecrets } from './setup-secrets.js';
import { FIX_CONTEXT } from '../fix/defaults.js';
import { fixCommands, type FixInput } from '../fix/fix-input.js';
import { runFix, type FixResult } from '../fix/run-fix.js';
import type { FailedCheck, GitHost } from '../github/types.js';
import { answerThreads, toAddressed } from './answer-threads.js';
import { gatherTaskContext, pullRequestDiff } from './gather-context.js';
import { readsReviewThreads } from './review-scope.js';
import type { Job } from '../queue/types.js';
import type { JobSandbox } from '../sandbox/types.js';
import type { DepCacheScope } from '../workspace/dep-cache-scope.js';
import { resolveRef, syncMirror } from '../workspace/mirror.js';
import type { Commands, ObservableWorkspace } from '../workspace/types.js';
import { addWorktree } from '../workspace/worktree.js';
import { openChangeFeed } from '../workspace/inotify-feed.js';
import { detectCommandsAt } from '../workspace/detect-commands-at.js';
import { baselineCacheDir } from '../fix/baseline-cache.js';
import { FIX_TOOL_LIMITS } from '../fix/defaults.js';
import { githubPublisher } from './github-publisher.js';
import type { JobFiles, JobStateFile } from './files.js';
import type { JobEnv } from './env.js';
import { lastTestOutput, notVerifiedSentence, testsSentence } from './outcome.js';
import type { JobReporter } from './reporter.js';
import type { JobTarget } from './target.js';
import { jobRunLogMarkdown, publishNoFixCheckRun, type JobRunLogSource } from './run-log.js';
import { jobTask } from './task.js';
import { errorText } from '../util/error-text.js';
import { jobImage } from './job-image.js';

export interface JobFixInput {
  env: JobEnv;
  job: Job;
  config: RepoConfig;
  host: GitHost;
  files: JobFiles;
  state: JobStateFile;
  target: JobTarget;
  reporter: JobReporter;
  signal: AbortSignal;
}

/** Workspace → the fix session (setup, agent, gate, publish) → the final status comment. */
export async function fixOnWorkspace(input: JobFixInput): Promise<FixResult> {
  const { env, job, config, host, files, state, target, reporter } = input;
  const { request } = job;
  // Secrets the operator did not grant: a clear comment (classify-job-error.ts), and no setup at all.
  jobSetupSecrets(env, config, request);
  // The status comment exists before the job's first effect (DESIGN §1: report.start), so whoever
  // asked sees it first, and no push or PR can come before it.
  await reporter.phase('workspace', 'running');
  const saved = state.get('fix');
  // A review's task shows the PR's diff against its base: the base comes along in the one fetch.
  const diffBase = !saved && readsReviewThreads(request) ? (await host.getPullRequest(request.number)).baseRef : null;
  const { gitDir } = await syncMirror({
    workdir: env.workdir,
    repoId: request.repo.id,
    cloneUrl: request.repo.cloneUrl,
    token: await host.gitToken(),
    refs: diffBase ? [...new Set([...target.fetchRefs, `refs/heads/${diffBase}`])] : target.fetchRefs,
  });
  const base = saved?.baseCommit ?? (await resolveRef(gitDir, target.baseRef));
  const objectsWithin = join(env.workdir, 'mirrors');
  // The change feed starts with the first tree hash (inside runFix) and ends with it.
  const workspace = await addWorktree({ repo: gitDir, path: files.worktree, ref: base, stateDir: files.index, store: state.workspaceStore(), objectsWithin, changeFeed: openChangeFeed });
  // On greenfix's own branches, detection reads the default branch's files (JobTarget.commandsFrom).
  const commands =
    !saved && target.commandsFrom
      ? await detectCommandsAt(gitDir, await resolveRef(gitDir, target.commandsFrom), { verify: config.verify, setup: setupCommand(config) }, jobWarn(input))
      : fixCommands(workspace.root, saved, { verify: config.verify, setup: setupCommand(config) }, jobWarn(input));
  void reporter.phase('workspace', 'done', `${target.baseRef.replace(/^refs\/(heads\/)?/, '')} @ ${base.slice(0, 7)}`);
  // A workflow run names the workflow, not its jobs' check runs: then every failed check counts.
  const ci = request.kind === 'ci_fix' && !saved ? request.ci : undefined;
  const failed = ci ? await host.failedChecks(ci.headSha, ci.workflowRunId ? undefined : ci.checks) : [];
  const task = saved?.task ?? (await freshTask(input, failed, gitDir, base, diffBase));

  const pageUrl = env.runPageUrl?.(job.id) ?? null;
  const source: JobRunLogSource = { journal: files.journal, gitDir, base, secrets: env.secrets ?? [], pageUrl };
  // The repository's environment image, pulled and pinned by digest, held until the job ends.
  const image = await jobImage(input, workspace.root, state.get('job')?.image);
  const planned = state.get('job');
  if (image && planned && planned.image?.digest !== image.digest) state.set('job', { ...planned, image: { reference: image.reference, digest: image.digest } });
  // The job's own uid (the worktree is handed to it) and disk watchdog, released however it ends.
  const sandbox = await env.sandbox.forJob({ workspace: files.worktree, image }).catch((error: unknown) => {
    image?.release();
    throw error;
  });
  const result = await runFix(jobFixInput(input, { workspace, commands, gitDir, sandbox, task, runLog: source })).finally(async () => {
    workspace.close();
    await sandbox.release();
    image?.release();
  });
  await reporter.flush();
  const links: RunLogLinks = { checkRun: result.status === 'published' ? (result.published.checkRunUrl ?? null) : null, page: pageUrl };
  if (result.status !== 'published') {
    // Best effort: the status comment still says why; a failed check run only loses its link.
    links.checkRun = await noFixCheckRun(host, job.id, base, result, source).catch((error: unknown) => {
      env.log.warn({ jobId: job.id, err: errorText(error) }, 'run log check run failed');
      return null;
    });
  }
  // From the outcome, not only the progress events: a resumed run may have made no call in this process.
  reporter.settle(result.outcome.tokens);
  const answered = result.status === 'published' ? await answerReview(input, result, gitDir) : null;
  await report(reporter, result, files, links, answered);
  return result;
}

/** The task of a job that has none saved yet; the threads it answers are saved with the target. */
async function freshTask(input: JobFixInput, failed: FailedCheck[], gitDir: string, base: string, diffBase: string | null): Promise<string> {
  const { host, job, state, target } = input;
  const diff = diffBase ? { base: diffBase, text: await pullRequestDiff(gitDir, await resolveRef(gitDir, `refs/heads/${diffBase}`), base) } : null;
  const context = await gatherTaskContext({ host, request: job.request, target, diff });
  if (readsReviewThreads(job.request)) state.set('job', { ...target, threads: context.threads.map(toAddressed) });
  return jobTask(job.request, target, failed, context);
}

/** Replies in (and maybe resolves) the threads the job answered; idempotent, so a resumed job repeats none. */
async function answerReview(input: JobFixInput, result: Extract<FixResult, { status: 'published' }>, gitDir: string): Promise<{ replied: number; resolved: number } | null> {
  const threads = input.state.get('job')?.threads ?? [];
  const verified = result.outcome.verified;
  const baseCommit = input.state.get('fix')?.baseCommit;
  if (threads.length === 0 || !verified || !baseCommit) return null;
  return answerThreads({
    host: input.host,
    pullNumber: input.job.request.number,
    jobId: input.job.id,
    gitDir,
    threads,
    baseCommit,
    commit: result.published.commit,
    tree: result.published.tree,
    command: verified.command,
    summary: result.outcome.summary ?? '',
    resolve: input.config.review.resolve_threads,
  });
}

interface RunLogLinks {
  checkRun: string | null;
  page: string | null;
}

/** The run log of a job that ends without a PR, as a check run on the commit it worked on. */
async function noFixCheckRun(host: GitHost, jobId: string, base: string, result: FixResult, source: JobRunLogSource): Promise<string> {
  const reason = result.status === 'not_verified' ? result.reason : result.outcome.reason;
  return publishNoFixCheckRun(host, {
    jobId,
    headSha: base,
    conclusion: result.outcome.status === 'model_error' ? 'failure' : 'neutral',
    sentence: notVerifiedSentence(result.outcome, reason),
    text: await jobRunLogMarkdown(source, null),
  });
}

/** What a job found before its fix: the worktree, its commands, the mirror, its sandbox, the task. */
export interface JobFixParts {
  workspace: ObservableWorkspace;
  commands: Commands;
  gitDir: string;
  sandbox: JobSandbox;
  task: string;
  /** Where the PR's check run reads the run log from; absent: the test output only. */
  runLog?: JobRunLogSource;
}

/** What a job supplies to the fix's one door (fix/run-fix.ts); the CLI's twin is localFixInput. */
export function jobFixInput(input: JobFixInput, parts: JobFixParts): FixInput {
  const { env, job, config, host, files, state, target, reporter, signal } = input;
  const { workspace, commands, sandbox } = parts;
  const warn = jobWarn(input);
  return {
    task: parts.task,
    workspace,
    commands,
    budgets: {
      maxSteps: config.max_steps,
      maxTokens: config.max_tokens,
      timeoutMinutes: config.timeout_minutes,
      contextTokens: FIX_CONTEXT.maxTokens,
      ...(config.max_cost_usd !== undefined ? { maxCostUsd: config.max_cost_usd } : {}),
    },
    model: env.model,
    price: env.price ?? null,
    sandbox,
    publisher: githubPublisher({
      host,
      gitDir: parts.gitDir,
      repo: job.request.repo,
      target,
      config,
      jobId: job.id,
      push: env.push,
      queue: env.queue,
      cost: { model: env.model.name, price: env.price ?? null },
      ...(parts.runLog ? { runLog: { source: parts.runLog, warn } } : {}),
    }),
    state: state.fixStore(),
    journal: files.journal,
    wrap: env.wrap,
    instructions: config.instructions ?? null,
    ...(env.depCache ? { caches: { deps: env.depCache, managerDir: join(env.workdir, 'package-cache'), scope: cacheScope(job, target) } } : {}),
    jobId: job.id,
    warn,
    signal,
    now: env.now,
    tests: { mode: config.verify_mode, cacheDir: baselineCacheDir(env.workdir), timeoutMs: FIX_TOOL_LIMITS.testTimeoutSec * 1000, where: target.baseRef.replace(/^refs\/(heads\/)?/, ''), allowRemovedTests: config.tests.allow_removed },
    setupAllow: config.network.allow,
    ...grantedSecrets(jobSetupSecrets(env, config, job.request)),
    onEvent: (event) => reporter.apply(event),
  };
}

/**
 * The dependency cache's scope: the repository, and the ref whose tree setup installs (the default
 * branch for an issue; `refs/pull/<n>/head` for a CI fix, a review or a retry on a pull request).
 */
function cacheScope(job: Job, target: JobTarget): DepCacheScope {
  return { repo: String(job.request.repo.id), ref: target.baseRef, defaultRef: `refs/heads/${job.request.repo.defaultBranch}` };
}

/** Only a setup that asked for secrets carries any. */
const grantedSecrets = (secrets: Record<string, string>): Pick<FixInput, 'setupSecrets'> => (Object.keys(secrets).length > 0 ? { setupSecrets: secrets } : {});

/** A worktree file the host would not read (see readRegularFile), in the worker's log. */
const jobWarn = (input: JobFixInput) => (message: string) => input.env.log.warn({ jobId: input.job.id }, message);

async function report(reporter: JobReporter, result: FixResult, files: JobFiles, links: RunLogLinks, answered: { replied: number; resolved: number } | null): Promise<void> {
  const logLinks = { ...(links.checkRun ? { runLogUrl: links.checkRun } : {}), ...(links.page ? { runPageUrl: links.page } : {}) };
  if (result.status === 'published') {
    const { published, outcome } = result;
    const pr = published.pullRequest;
    const threads = answered ? ` Answered ${answered.replied} review thread(s)${answered.resolved ? `, resolved ${answered.resolved}` : ''}.` : '';
    await reporter.finish({
      status: 'published',
      sentence: `${pr ? `Opened ${pr.url} with a fix whose tests passed on exactly the committed tree.` : `Pushed ${published.branch}.`}${threads}`,
      ...(pr ? { pullRequest: pr } : {}),
      ...logLinks,
      ...(outcome.verified ? { evidence: { ...outcome.verified, commit: published.commit, branch: published.branch, ...(result.environment ? { environment: result.environment } : {}) } } : {}),
    });
    return;
  }
  const tail = lastTestOutput(files.journal);
  const tests = testsSentence(tail, result.baselineLine ?? null);
  const sentence = [notVerifiedSentence(result.outcome, result.reason), tests].filter(Boolean).join(' ');
  await reporter.finish({ status: 'not_verified', sentence, ...(tail ? { outputTail: tail } : {}), ...logLinks });
}
