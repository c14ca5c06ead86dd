import { jobImage } from './job-image.js';
import { join } from 'node:path';
import { setupCommand, type RepoConfig } from '../config/repo-config.js';
import { jobSetupSecrets } from './setup-secrets.js';
import { baselineCacheDir } from '../fix/baseline-cache.js';
import { FIX_TOOL_LIMITS, SETUP_TIMEOUT_MS } from '../fix/defaults.js';
import { runDoctor, type CommandSource } from '../fix/doctor-check.js';
import { doctorLines, doctorVerdict } from '../fix/doctor-verdict.js';
import { fixCommands } from '../fix/fix-input.js';
import { codeBlock, codeSpan, details, oneLine, tail } from '../github/markdown.js';
import type { GitHost } from '../github/types.js';
import { untrustedMarkdown } from '../github/untrusted-text.js';
import type { Job } from '../queue/types.js';
import type { JobSandbox } from '../sandbox/types.js';
import type { ObservableWorkspace } from '../workspace/types.js';
import { detectCommands } from '../workspace/detect-commands.js';
import { resolveRef, syncMirror } from '../workspace/mirror.js';
import { addWorktree } from '../workspace/worktree.js';
import type { JobEnv } from './env.js';
import type { JobFiles } from './files.js';

/** The `/agent doctor` answer: one comment per issue or PR, edited in place on a second run. */
export const DOCTOR_MARKER = '<!-- greenfix:doctor -->';

/**
 * `/agent doctor`: the readiness check on the default branch, as a job (it runs the repository's
 * code, so in a worker and the sandbox, never in the webhook handler). It answers with one comment:
 * the commands, durations, the baseline, the report format, what would be refused, and one line
 * saying whether greenfix can work here. No branch, no PR.
 */
export async function doctorJob(input: { env: JobEnv; job: Job; config: RepoConfig; host: GitHost; files: JobFiles; signal: AbortSignal }): Promise<{ ready: boolean }> {
  const { env, job, host, files } = input;
  const { request } = job;
  const main = request.repo.defaultBranch;
  const { gitDir } = await syncMirror({ workdir: env.workdir, repoId: request.repo.id, cloneUrl: request.repo.cloneUrl, token: await host.gitToken(), refs: [`refs/heads/${main}`] });
  const base = await resolveRef(gitDir, `refs/heads/${main}`);
  const workspace = await addWorktree({ repo: gitDir, path: files.worktree, ref: base, stateDir: files.index, objectsWithin: join(env.workdir, 'mirrors') });
  // The repository's environment image, as its fixes would run in it.
  const image = await jobImage(input, workspace.root);
  try {
    // The job's own uid (the worktree is handed to it), released however the check ends.
    const sandbox = await env.sandbox.forJob({ workspace: files.worktree, image });
    try {
      return await check({ ...input, workspace, sandbox, main, base });
    } finally {
      await sandbox.release();
    }
  } finally {
    image?.release();
  }
}

async function check(input: { env: JobEnv; job: Job; config: RepoConfig; host: GitHost; signal: AbortSignal; workspace: ObservableWorkspace; sandbox: JobSandbox; main: string; base: string }): Promise<{ ready: boolean }> {
  const { env, job, config, host, signal, workspace, sandbox, main, base } = input;
  const { request } = job;
  const detected = detectCommands(workspace.root);
  const commands = fixCommands(workspace.root, undefined, { verify: config.verify, setup: setupCommand(config) });
  const source = (given: string | undefined, found: string | null): CommandSource => (given ? 'configured' : found ? 'detected' : 'none');
  const findings = await runDoctor(
    {
      workspace, sandbox, owner: sandbox.owner, setupTimeoutMs: SETUP_TIMEOUT_MS, testTimeoutMs: FIX_TOOL_LIMITS.testTimeoutSec * 1000, cacheDir: baselineCacheDir(env.workdir), egressAllow: config.network.allow, signal,
      // Not granted: the same one sentence as a fix's (job/setup-secrets.ts), before any setup.
      setupSecrets: jobSetupSecrets(env, config, request),
    },
    commands,
    { verify: source(config.verify, detected.verify), setup: source(setupCommand(config), detected.setup) },
    [],
  );
  signal.throwIfAborted();
  const verdict = doctorVerdict(findings);
  const where = `${main} @ ${base.slice(0, 7)}`;
  const parts = [
    `**greenfix doctor** on ${codeSpan(where)}: ${verdict.ready ? '✅' : '❌'} ${untrustedMarkdown(oneLine(verdict.line, 600), 600)}`,
    doctorLines(findings, main).map((l) => `- ${untrustedMarkdown(oneLine(l, 600), 600)}`).join('\n'),
    `- verify_mode: ${codeSpan(config.verify_mode)}`,
  ];
  if (findings.setup && findings.setup.exitCode !== 0) parts.push(details('Setup output (tail)', codeBlock(tail(findings.setup.outputTail, 4000))));
  if (findings.baselineTail) parts.push(details('Test output on the base (tail)', codeBlock(tail(findings.baselineTail, 4000))));
  parts.push(DOCTOR_MARKER);
  await host.upsertComment(request.number, DOCTOR_MARKER, parts.join('\n\n'));
  return { ready: verdict.ready };
}
