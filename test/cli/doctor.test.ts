import { chmodSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from './helpers.js';
import { cleanup, tempDir } from '../support/temp-dir.js';
import { makeRepo, writeFiles } from '../support/make-repo.js';

const HEALTHY = {
  'package.json': JSON.stringify({ name: 'healthy', version: '1.0.0', private: true, scripts: { test: 'node --test --test-reporter=tap' } }),
  'package-lock.json': JSON.stringify({ name: 'healthy', version: '1.0.0', lockfileVersion: 3, requires: true, packages: { '': { name: 'healthy', version: '1.0.0' } } }),
  'a.test.mjs': "import { test } from 'node:test';\ntest('works', () => {});\ntest('also works', () => {});\n",
};

/** `greenfix doctor` through the built CLI, real git and bwrap: what a maintainer sees before the first fix. */
describe('greenfix doctor', () => {
  let dir: string;
  const doctor = (repo: string, ...extra: string[]) => runCli(['doctor', '--repo', repo, '--json', ...extra], { GREENFIX_WORKDIR: join(dir, 'work') });
  beforeEach(() => (dir = tempDir('greenfix-doctor-')));
  afterEach(() => cleanup(dir));

  it('a healthy repository: detected commands, setup and tests timed, the baseline, ready', async () => {
    const repo = makeRepo(join(dir, 'repo'), HEALTHY);
    const r = await doctor(repo);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('greenfix: verify: npm test (detected)');
    expect(r.stderr).toContain('greenfix: setup: npm ci (detected)');
    expect(r.stderr).toMatch(/greenfix: setup ran: exit code 0 in [\d.]+ s\n/);
    expect(r.stderr).toMatch(/greenfix: tests ran: exit code 0 in [\d.]+ s\n/);
    expect(r.stderr).toContain('greenfix: report format: node --test (TAP)');
    expect(r.stderr).toMatch(/greenfix: baseline on main @ [0-9a-f]{7}: 2 tests, all passing\n/);
    expect(r.stderr).toMatch(/greenfix: greenfix can work on this repository: the tests pass on the base \(2 tests, node --test \(TAP\)\)\n$/);
    expect(r.json).toMatchObject({ ready: true, commands: { verify: 'npm test', setup: 'npm ci' }, baseline: { exitCode: 0, totals: { total: 2 } } });
    // the worktree is gone again; the baseline it measured is cached for the first fix
    expect(existsSync(join(dir, 'work', 'doctor'))).toBe(true);
    expect(readdirSync(join(dir, 'work', 'doctor'))).toEqual([]);
    expect(readdirSync(join(dir, 'work', 'baselines'))).toHaveLength(1);
  });

  it('run inside the repository, as a user would (no --repo): the same check, ready', async () => {
    const repo = makeRepo(join(dir, 'repo'), HEALTHY);
    const r = await runCli(['doctor', '--json'], { GREENFIX_WORKDIR: join(dir, 'work') }, repo);
    expect(r.stderr).not.toContain('doctor failed');
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({ ready: true, baseline: { exitCode: 0, totals: { total: 2 } } });
  });

  it('a repository without tests: not ready, and says to set verify', async () => {
    const repo = makeRepo(join(dir, 'repo'), { 'README.md': 'no tests here\n' });
    const r = await doctor(repo);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('greenfix: verify: (none) (none)');
    expect(r.stderr).toMatch(/greenfix: greenfix cannot work on this repository yet: no test command was detected — set `verify:` in \.github\/greenfix\.yml \(or --verify\)\n$/);
    expect(r.json).toMatchObject({ ready: false, baseline: null });
  });

  it('a repository whose setup fails: not ready, with the setup output', async () => {
    const repo = makeRepo(join(dir, 'repo'), { 'a.test.mjs': HEALTHY['a.test.mjs'] });
    const r = await doctor(repo, '--setup', 'echo "cannot reach registry.example.invalid" >&2; exit 7', '--verify', 'node --test');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('greenfix: setup: echo "cannot reach registry.example.invalid" >&2; exit 7 (configured)');
    expect(r.stderr).toMatch(/greenfix: setup ran: exit code 7 in [\d.]+ s\n/);
    expect(r.stderr).toContain('cannot reach registry.example.invalid');
    expect(r.stderr).toMatch(/greenfix: greenfix cannot work on this repository yet: the setup command failed \(exit code 7\)/);
  });

  it('a red base with a readable report: ready with no_new_failures; a program the sandbox lacks: not ready', async () => {
    const red = makeRepo(join(dir, 'repo'), { 'a.test.mjs': "import { test } from 'node:test';\ntest('ok', () => {});\ntest('red', () => { throw new Error('x'); });\n" });
    const r = await doctor(red, '--verify', 'node --test --test-reporter=tap');
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/with `verify_mode: no_new_failures`: 1 of 2 tests already fail on the base/);
    // Why it fails on the base: the end of the test output (a person could not see it before).
    expect(r.stderr).toMatch(/greenfix: the test command's output on the base ended with:\n[\s\S]*not ok 2 - red/);
    const missing = await doctor(red, '--verify', 'no-such-runner-xyz test');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('greenfix: sandbox: not found: no-such-runner-xyz');
  });

  it('a command that sets its own PATH (`PATH=… cmd`): the program is looked up on that PATH, as the command runs it', async () => {
    const root = join(dir, 'repo');
    writeFiles(root, { 'tools/greenfix-runner-xyz': '#!/bin/sh\necho "TAP version 13"\necho "ok 1 - works"\necho "1..1"\n' });
    chmodSync(join(root, 'tools/greenfix-runner-xyz'), 0o755);
    const repo = makeRepo(root, {});
    const r = await doctor(repo, '--verify', 'CI=1 PATH="$PWD/tools:$PATH" greenfix-runner-xyz --all');
    expect(r.stderr).not.toContain('not found: greenfix-runner-xyz');
    expect(r.stderr).not.toContain('the sandbox has no');
    expect(r.code).toBe(0);
    // Without the prefix the same program is missing, and said so.
    const bare = await doctor(repo, '--verify', 'greenfix-runner-xyz --all');
    expect(bare.code).toBe(1);
    expect(bare.stderr).toContain('the sandbox has no greenfix-runner-xyz');
  });
});
