import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { branches, runCli, writeScript, type CliRun } from './helpers.js';
import { cleanup, tempDir } from '../support/temp-dir.js';
import { git } from '../support/git.js';
import { makeRepo } from '../support/make-repo.js';
import { RED_BASE_REPO as REPO, TAP_VERIFY as VERIFY } from '../support/red-base-repo.js';

const FIX: [string, unknown] = ['edit_file', { path: 'lib.mjs', old: 'a - b', new: 'a + b' }];
const BREAK: [string, unknown] = ['edit_file', { path: 'lib.mjs', old: 'keep = () => 1', new: 'keep = () => 2' }];

/** End to end through the built CLI, real git, real bwrap, scripted model: the baseline and verify_mode. */
describe('greenfix fix: baseline and per-test evidence', () => {
  let dir: string;
  let repo: string;
  const fix = (task: string, script: string, extra: string[] = [], env: Record<string, string> = {}): Promise<CliRun> =>
    runCli(['fix', '--repo', repo, '--task', task, '--verify', VERIFY, '--model', `scripted:${script}`, '--json', ...extra], {
      GREENFIX_WORKDIR: join(dir, 'work'),
      ...env,
    });

  beforeEach(() => {
    dir = tempDir('greenfix-baseline-');
    repo = makeRepo(join(dir, 'repo'), REPO);
  });
  afterEach(() => cleanup(dir));

  it('no_new_failures: commits the fix; the evidence lists fail → pass and the still-failing test', async () => {
    const script = writeScript(dir, [[FIX], [['run_tests', {}]], [['finish', { summary: 'add adds' }]]]);
    const r = await fix('fix add', script, ['--verify-mode', 'no_new_failures']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/greenfix: baseline on main @ [0-9a-f]{7}: 3 tests, 2 failing: adds, unrelated\n/);
    expect(r.json).toMatchObject({
      status: 'verified',
      baseline: { command: VERIFY, exitCode: 1, format: 'node --test (TAP)', totals: { total: 3, failed: 2, passed: 1 }, failing: ['adds', 'unrelated'] },
      tests: { mode: 'no_new_failures', format: 'node --test (TAP)', fixed: ['adds'], broken: [], stillFailing: ['unrelated'], flaky: [] },
    });
    expect(git(repo, 'rev-parse', `${String(r.json?.branch)}^{tree}`)).toBe(r.json?.verifiedTree);
    expect(r.stderr).toMatch(/\ngreenfix: {3}fail → pass: adds\ngreenfix: {3}pass → fail: none\ngreenfix: {3}still failing, as on the base: unrelated\n/);
  });

  it('all_pass (the default): no commit, and it names the test that fails on main too', async () => {
    const script = writeScript(dir, [[FIX], [['run_tests', {}]], [['finish', { summary: 'cannot', gave_up: true }]]]);
    const r = await fix('fix add', script);
    expect(r.code).toBe(1);
    expect(r.json).toMatchObject({ status: 'gave_up', commit: null, tests: null });
    expect(r.stderr).toMatch(/Last test run: tests failed \(exit code: 1\): not verified: the test command did not pass: failing unrelated \(unrelated failed on the base too\)\./);
    expect(branches(repo)).toEqual([]);
  });

  it('a fix that breaks a test that passed on main: no commit, the broken test named', async () => {
    const script = writeScript(dir, [[FIX, BREAK], [['run_tests', {}]], [['finish', { summary: 'broke it', gave_up: true }]]]);
    const r = await fix('fix add', script, ['--verify-mode', 'no_new_failures']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/not verified: tests that passed on the base fail now: keeps\./);
    expect(branches(repo)).toEqual([]);
  });

  it('caches the baseline per base tree + command + setup: a second task on the same commit does not run it again', async () => {
    // Unsandboxed on purpose (GREENFIX_SANDBOX=off) so the test command can count its runs outside the worktree.
    const counter = join(dir, 'runs.log');
    const verify = `echo run >> ${counter}; ${VERIFY}`;
    const giveUp = writeScript(dir, [[['finish', { summary: 'nothing', gave_up: true }]]]);
    const run = (task: string) =>
      runCli(['fix', '--repo', repo, '--task', task, '--verify', verify, '--model', `scripted:${giveUp}`, '--json'], {
        GREENFIX_WORKDIR: join(dir, 'work'),
        GREENFIX_SANDBOX: 'off',
      });
    const first = await run('first issue');
    expect(first.stderr).toMatch(/greenfix: baseline on main @ [0-9a-f]{7}: 3 tests, 2 failing: adds, unrelated\n/);
    expect(readFileSync(counter, 'utf8')).toBe('run\n');
    const second = await run('second issue');
    expect(second.stderr).toMatch(/baseline on main @ [0-9a-f]{7}: 3 tests, 2 failing: adds, unrelated \(cached: not run again\)/);
    expect(second.json).toMatchObject({ baseline: { failing: ['adds', 'unrelated'] } });
    expect(readFileSync(counter, 'utf8')).toBe('run\n');
    // A new commit is a new base tree: the baseline runs again.
    appendFileSync(join(repo, 'lib.mjs'), '// touched\n');
    git(repo, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qam', 'touch');
    await run('third issue');
    expect(readFileSync(counter, 'utf8')).toBe('run\nrun\n');
  });

  it('a flaky test (passes on main, fails once after the change, passes on the rerun) is not broken; the evidence is the clean room run', async () => {
    // `flaky` passes on odd runs of the command in one directory: the baseline (1), fails on run_tests (2), passes on
    // its rerun (3) — flaky in the worktree — and passes on the clean room's first run (1), whose evidence the commit carries.
    const flakyRepo = {
      ...REPO,
      '.gitignore': 'cache/\n',
      'flaky.test.mjs': `import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
mkdirSync('cache', { recursive: true });
appendFileSync('cache/runs', 'x');
test('flaky', () => assert.equal(readFileSync('cache/runs', 'utf8').length % 2, 1));
`,
    };
    cleanup(dir);
    dir = tempDir('greenfix-baseline-');
    repo = makeRepo(join(dir, 'repo'), flakyRepo);
    const script = writeScript(dir, [[FIX], [['run_tests', {}]], [['finish', { summary: 'add adds' }]]]);
    const r = await fix('fix add', script, ['--verify-mode', 'no_new_failures']);
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({ tests: { fixed: ['adds'], broken: [], flaky: [], stillFailing: ['unrelated'] } });
    expect(r.json?.cleanRoom).toEqual(expect.objectContaining({ files: 0 }));
  });
});
