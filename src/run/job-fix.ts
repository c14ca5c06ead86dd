import { existsSync } from 'node:fs';
import { createCrashPoints } from '../agent/crash-points.js';
import { createTools } from '../agent/tools/registry.js';
import type { RepoConfig } from '../config/repo-config.js';
import type { GitHost } from '../github/types.js';
import type { Job } from '../queue/types.js';
import { prepareWorkspaceOwnership } from '../sandbox/ownership.js';
import { detectCommands } from '../workspace/detect-commands.js';
import { resolveRef, syncMirror } from '../workspace/mirror.js';
import { addWorktree } from '../workspace/worktree.js';
import { readAgentsMd } from './agents-md.js';
import { baselineCacheDir } from './baseline-cache.js';
import { githubPublisher } from './github-publisher.js';
import type { JobFiles } from './job-files.js';
import type { JobEnv } from './job-env.js';
import { lastTestOutput, notVerifiedSentence, testsSentence } from './job-outcome.js';
import { baselineSentence } from '../verify/test-evidence.js';
import type { JobReporter } from './job-reporter.js';
import type { JobTarget } from './job-target.js';
import { jobTask } from './job-task.js';
import { loadRunState } from './run-state.js';
import { runFix, type FixResult } from './run-fix.js';
import { FIX_CONTEXT, FIX_TOOL_LIMITS, SETUP_TIMEOUT_MS } from './defaults.js';

export interface JobFixInput {
  env: JobEnv;
  job: Job;
  config: RepoConfig;
  host: GitHost;
  files: JobFiles;
  target: JobTarget;
  reporter: JobReporter;
  signal: AbortSignal;
}

/** Workspace → runFix (setup, agent, gate, publish) → the final status comment. */
export async function fixOnWorkspace(input: JobFixInput): Promise<FixResult> {
  const { env, job, config, host, files, target, reporter, signal } = input;
  const { request } = job;
  void reporter.phase('workspace', 'running');
  const { gitDir } = await syncMirror({
    workdir: env.workdir,
    repoId: request.repo.id,
    cloneUrl: request.repo.cloneUrl,
    token: await host.gitToken(),
    refs: target.fetchRefs,
  });
  const saved = loadRunState(files.state);
  const base = saved?.baseCommit ?? (await resolveRef(gitDir, target.baseRef));
  const fresh = !existsSync(files.worktree);
  const workspace = await addWorktree({ repo: gitDir, path: files.worktree, ref: base, stateDir: files.index });
  if (fresh) await prepareWorkspaceOwnership(files.worktree, env.fileOwner);
  const commands = saved?.commands ?? detectCommands(workspace.root, { verify: config.verify ?? null, setup: config.setup ?? null });
  void reporter.phase('workspace', 'done', `${target.baseRef.replace(/^refs\/(heads\/)?/, '')} @ ${base.slice(0, 7)}`);
  // A workflow run names the workflow, not its jobs' check runs: then every failed check counts.
  const ci = request.kind === 'ci_fix' && !saved ? request.ci : undefined;
  const failed = ci ? await host.failedChecks(ci.headSha, ci.workflowRunId ? undefined : ci.checks) : [];
  const task = saved?.task ?? jobTask(request, target, failed);
  const crashPoints = env.crashPoints ?? createCrashPoints({});
  const agentsMd = [readAgentsMd(workspace.root), config.instructions].filter(Boolean).join('\n\n') || null;

  const result = await runFix(
    {
      workspace,
      sandbox: env.sandbox,
      publisher: githubPublisher({ host, gitDir, cloneUrl: request.repo.cloneUrl, target, config, jobId: job.id, crashPoints }),
      paths: { journal: files.journal, state: files.state },
      crashPoints,
      setupTimeoutMs: SETUP_TIMEOUT_MS,
      agentsMd,
      tests: { mode: config.verify_mode, cacheDir: baselineCacheDir(env.workdir), timeoutMs: FIX_TOOL_LIMITS.testTimeoutSec * 1000, where: target.baseRef.replace(/^refs\/(heads\/)?/, '') },
      onPhase: (phase, detail) => onPhase(reporter, phase, detail, commands.setup),
      onBaseline: (line, cached) => void reporter.phase('baseline', 'done', cached ? `${line} (cached)` : line),
      agent: {
        model: env.model,
        tools: createTools(),
        toolContext: { workspace, sandbox: env.sandbox, verifyCommand: commands.verify, fileOwner: env.fileOwner, limits: FIX_TOOL_LIMITS, signal },
        budget: { maxSteps: config.max_steps, maxTokens: config.max_tokens, maxWallMs: config.timeout_minutes * 60_000 },
        context: FIX_CONTEXT,
        now: env.now,
        onEvent: (event) => {
          if (event.type === 'model') void reporter.progress(event.step, event.tokens.prompt + event.tokens.completion);
        },
        config: { jobId: job.id, maxSteps: config.max_steps, maxTokens: config.max_tokens, verify: commands.verify, setup: commands.setup },
      },
    },
    { version: 1, task, baseCommit: base, createdAt: env.now(), commands },
  );
  await reporter.flush();
  await report(reporter, result, files, target.baseRef.replace(/^refs\/(heads\/)?/, ''));
  return result;
}

function onPhase(reporter: JobReporter, phase: 'setup' | 'baseline' | 'agent' | 'gate' | 'publish', detail: string, setup: string | null): void {
  if (phase === 'setup') void reporter.phase('setup', 'running', detail);
  if (phase === 'baseline') {
    void reporter.phase('setup', setup ? 'done' : 'skipped', setup ?? 'no setup command');
    void reporter.phase('baseline', 'running', detail);
  }
  if (phase === 'agent') {
    void reporter.phase('setup', setup ? 'done' : 'skipped', setup ?? 'no setup command');
    if (reporter.report.phases.find((p) => p.name === 'baseline')?.state === 'pending') void reporter.phase('baseline', 'skipped', 'no test command');
    void reporter.phase('agent', 'running', detail);
  }
  if (phase === 'gate') {
    void reporter.phase('agent', 'done', `${reporter.report.steps} steps`);
    void reporter.phase('verification', 'running');
  }
  if (phase === 'publish') {
    void reporter.phase('verification', 'done', `tree ${detail.slice(0, 12)}`);
    void reporter.phase('pull_request', 'running');
  }
}

async function report(reporter: JobReporter, result: FixResult, files: JobFiles, baseName: string): Promise<void> {
  if (result.status === 'published') {
    const { published, outcome } = result;
    const pr = published.pullRequest;
    await reporter.phase('pull_request', 'done', pr ? `#${pr.number}` : published.branch);
    await reporter.finish({
      status: 'published',
      sentence: pr ? `Opened ${pr.url} with a fix whose tests passed on exactly the committed tree.` : `Pushed ${published.branch}.`,
      ...(pr ? { pullRequest: pr } : {}),
      ...(outcome.verified ? { evidence: { ...outcome.verified, commit: published.commit, branch: published.branch } } : {}),
    });
    return;
  }
  const tail = lastTestOutput(files.journal);
  const tests = testsSentence(tail, result.baseline ? baselineSentence(result.baseline, baseName) : null);
  const sentence = [notVerifiedSentence(result.outcome, result.reason), tests].filter(Boolean).join(' ');
  await reporter.finish({ status: 'not_verified', sentence, ...(tail ? { outputTail: tail } : {}) });
}
