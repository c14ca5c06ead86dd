import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, writeScript } from './helpers.js';
import { cleanup, tempDir } from '../support/temp-dir.js';
import { makeRepo, writeFiles } from '../support/make-repo.js';
import { git } from '../support/git.js';

/**
 * A repository with one (local, offline) dependency: `file:vendor/dep-a`, which npm installs as a
 * symlink in node_modules. Its test needs both the dependency and the fix of lib.js.
 */
const REPO: Record<string, string> = {
  'package.json': `${JSON.stringify({ name: 'r', version: '1.0.0', private: true, dependencies: { 'dep-a': 'file:vendor/dep-a' }, scripts: { test: 'node test.js' } })}\n`,
  'package-lock.json': `${JSON.stringify({
    name: 'r',
    version: '1.0.0',
    lockfileVersion: 3,
    requires: true,
    packages: {
      '': { name: 'r', version: '1.0.0', dependencies: { 'dep-a': 'file:vendor/dep-a' } },
      'node_modules/dep-a': { resolved: 'vendor/dep-a', link: true },
      'vendor/dep-a': { name: 'dep-a', version: '1.0.0' },
    },
  })}\n`,
  '.npmrc': 'audit=false\nfund=false\nupdate-notifier=false\noffline=true\n',
  '.gitignore': 'node_modules/\n',
  'vendor/dep-a/package.json': '{"name":"dep-a","version":"1.0.0","main":"index.js"}\n',
  'vendor/dep-a/index.js': 'exports.twice = (n) => n * 2;\n',
  'lib.js': 'exports.quad = (n) => require("dep-a").twice(n) + 1;\n',
  'test.js': 'process.exit(require("./lib.js").quad(2) === 8 ? 0 : 1);\n',
};
const FIX: [string, unknown] = ['edit_file', { path: 'lib.js', old: ' + 1;', new: ' * 2;' }];

describe('greenfix fix with the dependency cache', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir('greenfix-depcache-');
  });
  afterEach(() => cleanup(dir));

  it('the second run on the same lockfile restores node_modules instead of installing, and verifies', async () => {
    const repo = makeRepo(join(dir, 'repo'), REPO);
    const env = { GREENFIX_WORKDIR: join(dir, 'work') };
    const run = (task: string) => runCli(['fix', '--repo', repo, '--task', task, '--model', `scripted:${writeScript(dir, [[FIX], [['run_tests', {}]], [['finish', { summary: 'fixed' }]]])}`, '--json'], env);

    const first = await run('quad is off by one');
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(/greenfix: setup: done: npm ci · installed \(\d+\.\d s\), cached/);
    const entries = readdirSync(join(dir, 'work', 'dep-cache')).filter((name) => !name.startsWith('.'));
    expect(entries).toHaveLength(1);

    const second = await run('quad is wrong again');
    expect(second.code).toBe(0);
    expect(second.json).toMatchObject({ status: 'verified' });
    expect(second.stderr).toMatch(/greenfix: setup: done: npm ci · restored from cache \(\d+\.\d s\)/);
  });

  it('GREENFIX_CACHE_MB=0 turns the cache off; a malformed value is a usage error', async () => {
    const repo = makeRepo(join(dir, 'repo'), REPO);
    const script = writeScript(dir, [[FIX], [['run_tests', {}]], [['finish', { summary: 'fixed' }]]]);
    const off = await runCli(['fix', '--repo', repo, '--task', 'quad', '--model', `scripted:${script}`], { GREENFIX_WORKDIR: join(dir, 'work'), GREENFIX_CACHE_MB: '0' });
    expect(off.code).toBe(0);
    expect(off.stderr).toMatch(/greenfix: setup: done: npm ci · \d+\.\d s/);
    expect(existsSync(join(dir, 'work', 'dep-cache'))).toBe(false);
    const bad = await runCli(['fix', '--repo', repo, '--task', 'quad', '--model', `scripted:${script}`], { GREENFIX_WORKDIR: join(dir, 'work'), GREENFIX_CACHE_MB: '5G' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('GREENFIX_CACHE_MB must be a whole number from 0 to 1048576');
  });

  it("a branch's install (its own after-install script planted a file) is never restored on the default branch; the branch's next run restores it", async () => {
    const repo = makeRepo(join(dir, 'repo'), { ...REPO, 'scripts/after-install.sh': 'true\n' });
    git(repo, 'checkout', '-q', '-b', 'pr');
    // Not part of the cache key: only the setup command, lockfile, package.json and .npmrc are.
    writeFiles(repo, { 'scripts/after-install.sh': 'echo planted > node_modules/planted.txt\n' });
    git(repo, 'commit', '-q', '-am', 'plant');
    const env = { GREENFIX_WORKDIR: join(dir, 'work') };
    const run = (task: string) =>
      runCli(['fix', '--repo', repo, '--task', task, '--setup', 'npm ci && sh scripts/after-install.sh', '--model', `scripted:${writeScript(dir, [[FIX], [['run_tests', {}]], [['finish', { summary: 'fixed' }]]])}`], env);

    const onBranch = await run('quad on the branch');
    expect(onBranch.code).toBe(0);
    expect(onBranch.stderr).toMatch(/setup: done: .* · installed \(\d+\.\d s\), cached/);
    git(repo, 'checkout', '-q', 'main');
    const onMain = await run('quad on main');
    expect(onMain.code).toBe(0);
    expect(onMain.stderr).not.toMatch(/restored from cache/);
    expect(onMain.stderr).toMatch(/setup: done: .* · installed \(\d+\.\d s\), cached/);
    git(repo, 'checkout', '-q', 'pr');
    const again = await run('quad on the branch again');
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/setup: done: .* · restored from cache/);
  });
});
