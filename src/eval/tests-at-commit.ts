import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { runTestCommand } from '../agent/test-run.js';
import { fixCommands, NoTestCommandError, type CommandChoice, type FixInput } from '../fix/fix-input.js';
import { prepareManagerCache } from '../fix/manager-cache.js';
import { runSetup, setupCache } from '../fix/setup-phase.js';
import type { Sandbox } from '../sandbox/types.js';
import type { TestReport } from '../verify/test-report.js';
import { addWorktree, removeWorktree } from '../workspace/worktree.js';

export interface TestsAtCommitInput {
  repo: string;
  commit: string;
  /** The test and setup commands as given; absent ones are detected on the commit. */
  choice: CommandChoice;
  sandbox: Sandbox;
  /** Where the worktree and its state go for the duration (removed after). */
  scratch: string;
  /** How many times the tests run on the one tree (twice: a test that changes its mind is flaky). */
  runs: number;
  setupTimeoutMs: number;
  testTimeoutMs: number;
  /** The dependency cache (as a fix uses it): a second side or commit with the same manifests restores instead of installing. */
  caches?: FixInput['caches'];
  signal?: AbortSignal;
}

/** One run of the tests: its exit code and report (null: no report could be read). */
export interface TestsRun {
  exitCode: number | null;
  timedOut: boolean;
  report: TestReport | null;
}

/** Setup did not succeed on the commit: nothing about its tests can be said. */
export class SetupFailedError extends Error {
  override readonly name = 'SetupFailedError';
}

/**
 * The repository's tests on one commit, as a fix runs them: a fresh worktree, the setup command
 * (with network), then the verify command `runs` times in the sandbox without network — the same
 * test run as the baseline and the gate (agent/test-run.ts). The worktree is removed after.
 */
export async function testsAtCommit(input: TestsAtCommitInput): Promise<{ verify: string; runs: TestsRun[] }> {
  const path = join(input.scratch, 'worktree');
  await removeWorktree(input.repo, path);
  rmSync(join(input.scratch, 'state'), { recursive: true, force: true });
  const workspace = await addWorktree({ repo: input.repo, path, ref: input.commit, stateDir: join(input.scratch, 'state') });
  const commands = fixCommands(workspace.root, undefined, input.choice);
  const verify = commands.verify;
  if (!verify) {
    await removeWorktree(input.repo, path);
    throw new NoTestCommandError();
  }
  const jobSandbox = await input.sandbox.forJob({ workspace: path });
  const signal = input.signal ? { signal: input.signal } : {};
  try {
    if (commands.setup) {
      const owner = jobSandbox.owner;
      const cache = input.caches ? { cache: setupCache(input.caches, owner) } : {};
      // As a fix has them (fix/assemble-fix.ts): the managers' caches only into a real sandbox.
      const managerCache = input.caches && jobSandbox.kind === 'bwrap' ? await prepareManagerCache(input.caches.managerDir, input.caches.scope, owner) : undefined;
      const setup = await runSetup({ workspace, sandbox: jobSandbox, timeoutMs: input.setupTimeoutMs, ...cache, ...(managerCache ? { managerCache } : {}), ...signal }, commands.setup);
      if (setup.exitCode !== 0) throw new SetupFailedError(`setup \`${commands.setup}\` ${setup.timedOut ? 'timed out' : `exited ${setup.exitCode}`} on ${input.commit.slice(0, 12)}: ${setup.outputTail.slice(-400)}`);
    }
    const runs: TestsRun[] = [];
    for (let i = 0; i < input.runs; i++) {
      const run = await runTestCommand({
        sandbox: jobSandbox,
        place: { dir: workspace.root, readOnlyBinds: workspace.sandboxBinds, scratchDir: workspace.scratchDir },
        command: verify,
        timeoutMs: input.testTimeoutMs,
        label: 'baseline',
        ...signal,
      });
      runs.push({ exitCode: run.result.exitCode, timedOut: run.result.timedOut, report: run.report });
    }
    return { verify, runs };
  } finally {
    await jobSandbox.release();
    await removeWorktree(input.repo, path);
    rmSync(input.scratch, { recursive: true, force: true });
  }
}
