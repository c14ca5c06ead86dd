import { mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { NoTestCommandError, type CommandChoice, type FixInput } from '../fix/fix-input.js';
import type { Sandbox } from '../sandbox/types.js';
import type { TestReport, TestStatus } from '../verify/test-report.js';
import { git } from '../workspace/git.js';
import type { EvalInstance } from './eval-instance.js';
import { changedPaths, commitWithTests, diffOf } from './instance-git.js';
import { SetupFailedError, testsAtCommit, type TestsRun } from './tests-at-commit.js';
import { isTestPath } from './test-paths.js';
import { taskText } from './task-text.js';

export interface MineInput {
  repo: string;
  /** git's `--since` (a date or "90 days ago"). */
  since?: string;
  /** Stop after this many instances. */
  limit: number;
  /** Look at no more than this many commits. */
  maxCommits: number;
  choice: CommandChoice;
  sandbox: Sandbox;
  /** greenfix's scratch space for the worktrees (0711, outside the repository). */
  scratch: string;
  /** Linked issues' copies (`<n>.json`), for the task text. */
  issuesDir?: string;
  setupTimeoutMs: number;
  testTimeoutMs: number;
  /** The setup step's dependency cache (the workdir's, as `greenfix fix` uses it). */
  caches?: FixInput['caches'];
  /** Hears one line per commit looked at. */
  onProgress?: (line: string) => void;
  signal?: AbortSignal;
}

/** A commit that did not become an instance, and why. */
export interface DroppedCommit {
  commit: string;
  subject: string;
  reason: string;
}

export interface MineResult {
  instances: EvalInstance[];
  dropped: DroppedCommit[];
}

/** How many times each side's tests run: twice, so a test that changes its mind is seen. */
const RUNS = 2;

/**
 * Past fixes in a repository's first-parent history, newest first: a commit (or a merged PR's merge
 * commit, against its first parent) that changes tests and other files, whose changed tests fail
 * on the parent with only the test change applied and pass on the commit, twice each. Each becomes
 * an instance; every other commit looked at is dropped with its reason.
 */
export async function mineFixes(input: MineInput): Promise<MineResult> {
  const args = ['rev-list', '--first-parent', `--max-count=${input.maxCommits}`, ...(input.since ? [`--since=${input.since}`] : []), 'HEAD'];
  const commits = (await git(args, { cwd: input.repo })).split('\n').filter(Boolean);
  const name = basename(input.repo);
  const result: MineResult = { instances: [], dropped: [] };
  for (const commit of commits) {
    if (result.instances.length >= input.limit) break;
    input.signal?.throwIfAborted();
    const message = await git(['log', '-1', '--format=%B', commit], { cwd: input.repo });
    const subject = message.split('\n')[0] ?? '';
    const outcome = await mineCommit(input, name, commit, message);
    if ('reason' in outcome) {
      result.dropped.push({ commit, subject, reason: outcome.reason });
      input.onProgress?.(`greenfix: eval mine: ${commit.slice(0, 12)} dropped: ${outcome.reason}`);
    } else {
      result.instances.push(outcome);
      input.onProgress?.(`greenfix: eval mine: ${commit.slice(0, 12)} → ${outcome.instance_id} (${outcome.FAIL_TO_PASS.length} fail→pass, ${outcome.PASS_TO_PASS.length} pass→pass)`);
    }
  }
  return result;
}

async function mineCommit(input: MineInput, name: string, commit: string, message: string): Promise<EvalInstance | { reason: string }> {
  const parent = (await git(['rev-list', '--parents', '-n', '1', commit], { cwd: input.repo })).trim().split(' ')[1];
  if (!parent) return { reason: 'the first commit: no parent to start from' };
  const paths = await changedPaths(input.repo, parent, commit);
  const tests = paths.filter(isTestPath);
  const code = paths.filter((p) => !isTestPath(p));
  if (tests.length === 0) return { reason: 'no test change' };
  if (code.length === 0) return { reason: 'only tests change' };
  const id = `${name.replace(/[^A-Za-z0-9._-]/g, '_')}-${commit.slice(0, 12)}`;
  const testPatch = await diffOf(input.repo, parent, commit, tests);
  const withTests = await commitWithTests(input.repo, parent, testPatch, id);
  try {
    return await judge(input, { id, name, parent, commit, withTests, testPatch, code, message });
  } finally {
    // The runner makes its own when it runs the instance; a dropped commit leaves nothing behind.
    await git(['update-ref', '-d', `refs/greenfix-eval-base/${id}`], { cwd: input.repo });
  }
}

interface Candidate {
  id: string;
  name: string;
  parent: string;
  commit: string;
  withTests: string;
  testPatch: string;
  code: string[];
  message: string;
}

/** Runs a candidate's tests on both sides and decides: an instance, or why not. */
async function judge(input: MineInput, { id, name, parent, commit, withTests, testPatch, code, message }: Candidate): Promise<EvalInstance | { reason: string }> {
  let before: TestsRun[];
  let after: TestsRun[];
  try {
    before = (await runTests(input, withTests, `${id}-before`)).runs;
    after = (await runTests(input, commit, `${id}-after`)).runs;
  } catch (error) {
    if (error instanceof SetupFailedError || error instanceof NoTestCommandError) return { reason: error.message };
    throw error;
  }
  const unsteady = flakiness(before, 'with only the test change') ?? flakiness(after, 'on the commit');
  if (unsteady) return { reason: unsteady };
  const b = before[0]?.report;
  const a = after[0]?.report;
  if (!b || !a) return { reason: 'the test run printed no report greenfix can read: no test can be named' };
  const failToPass = [...statuses(b)].filter(([t, s]) => s === 'failed' && statuses(a).get(t) === 'passed').map(([t]) => t);
  const passToPass = [...statuses(b)].filter(([t, s]) => s === 'passed' && statuses(a).get(t) === 'passed').map(([t]) => t);
  if (failToPass.length === 0) return { reason: 'no test fails with only the test change and passes on the commit' };
  const task = taskText(message, input.issuesDir);
  return {
    instance_id: id,
    repo: name,
    base_commit: parent,
    patch: await diffOf(input.repo, parent, commit, code),
    test_patch: testPatch,
    problem_statement: task.text,
    FAIL_TO_PASS: failToPass,
    PASS_TO_PASS: passToPass,
  };
}

function runTests(input: MineInput, commit: string, label: string) {
  const scratch = join(input.scratch, label);
  mkdirSync(scratch, { recursive: true, mode: 0o711 });
  return testsAtCommit({
    repo: input.repo,
    commit,
    choice: input.choice,
    sandbox: input.sandbox,
    scratch,
    runs: RUNS,
    setupTimeoutMs: input.setupTimeoutMs,
    testTimeoutMs: input.testTimeoutMs,
    ...(input.caches ? { caches: input.caches } : {}),
    ...(input.signal ? { signal: input.signal } : {}),
  });
}

function statuses(report: TestReport): Map<string, TestStatus> {
  return new Map(report.tests.map((t) => [t.id, t.status]));
}

/** Why the runs on one tree disagree ("not deterministic: a passed once and failed once…"), or null. */
function flakiness(runs: readonly TestsRun[], where: string): string | null {
  const [first, ...rest] = runs;
  if (!first) return null;
  for (const other of rest) {
    if (first.timedOut || other.timedOut) return `the tests timed out ${where}`;
    if (!first.report || !other.report) {
      if (first.exitCode !== other.exitCode) return `not deterministic: the test command exited ${first.exitCode}, then ${other.exitCode} ${where}`;
      continue;
    }
    const a = statuses(first.report);
    const b = statuses(other.report);
    const changed = [...new Set([...a.keys(), ...b.keys()])].filter((t) => a.get(t) !== b.get(t));
    if (changed.length > 0) {
      const shown = changed.slice(0, 5).map((t) => `${t} (${a.get(t) ?? 'did not run'}, then ${b.get(t) ?? 'did not run'})`);
      return `not deterministic ${where}: ${shown.join(', ')}${changed.length > 5 ? ` and ${changed.length - 5} more` : ''}`;
    }
  }
  return null;
}
