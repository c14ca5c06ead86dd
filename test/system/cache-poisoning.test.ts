import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nock from 'nock';
import { runProcess } from '../../src/util/run-process.js';
import { cleanup, tempDir } from '../support/temp-dir.js';
import { startHarness, turn, type Harness } from './harness.js';
import { labeled } from './issue-payloads.js';
import { openPullRequest, pullRequestComment, recordingModel, shownToModel, statusComments, wireRemote } from './pull-fixtures.js';

/**
 * Issue 20's cache poisoning through the real app (Probot, queue, workers, bwrap, npm ci offline):
 * a pull request changes only a dependency's install script — no input of the cache key — and its
 * job's setup plants a `node_modules/.bin/node` shim that prints "ok". A later job on the default
 * branch must not restore that entry: it installs for real, its baseline fails as the base does, and
 * a non-fix is not verified.
 */
const PACKAGE = { name: 'adder', version: '1.0.0', private: true, dependencies: { 'dep-a': 'file:vendor/dep-a' }, scripts: { test: 'node test.js' } };
const DEP = (postinstall: string) => `${JSON.stringify({ name: 'dep-a', version: '1.0.0', main: 'index.js', scripts: { postinstall } })}\n`;
const SHIM_SCRIPT = "mkdir -p ../../node_modules/.bin && printf '#!/bin/sh\\necho ok\\n' > ../../node_modules/.bin/node && chmod +x ../../node_modules/.bin/node";
const FILES = {
  'package.json': `${JSON.stringify(PACKAGE)}\n`,
  'vendor/dep-a/package.json': DEP('true'),
  'vendor/dep-a/index.js': 'module.exports = 1;\n',
  '.npmrc': 'audit=false\nfund=false\nupdate-notifier=false\noffline=true\n',
  '.gitignore': 'node_modules/\n',
  'lib.js': 'module.exports = (a, b) => a - b;\n',
  'test.js': "const add = require('./lib');\nif (add(2, 3) !== 5) { console.error('add(2, 3) gave ' + add(2, 3)); process.exit(1); }\nconsole.log('add works');\n",
};

/** The lockfile npm writes for these files (offline: the one dependency is a directory in the repository). */
async function lockfile(): Promise<string> {
  const dir = tempDir('gf-lock-');
  try {
    for (const [path, content] of Object.entries(FILES)) {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), content);
    }
    const r = await runProcess({ argv: ['npm', 'install', '--package-lock-only', '--ignore-scripts', '--offline'], cwd: dir, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir }, timeoutMs: 60_000 });
    if (r.exitCode !== 0) throw new Error(`npm install --package-lock-only: ${r.stderr}`);
    return readFileSync(join(dir, 'package-lock.json'), 'utf8');
  } finally {
    cleanup(dir);
  }
}

describe('a dependency cache entry written on a pull request', () => {
  let h: Harness;
  afterEach(async () => h?.close());
  afterAll(() => nock.restore());

  it('is never restored by a job on the default branch: it installs for real, and a non-fix is not verified', async () => {
    const files = { ...FILES, 'package-lock.json': await lockfile() };
    const model = recordingModel([
      // The pull request's job: whatever it does, its setup stored node_modules under its own ref.
      turn(['finish', { summary: 'nothing to do', gave_up: true }]),
      // The default branch's job: a non-fix, then run_tests, then finish.
      turn(['edit_file', { path: 'lib.js', old: 'a - b;', new: 'a - b; // fixed' }]),
      turn(['run_tests', {}]),
      turn(['finish', { summary: 'fixed' }]),
      turn(['finish', { summary: 'the tests fail', gave_up: true }]),
    ]);
    h = await startHarness({ files, script: [], model: model.model, state: { config: 'verify: npm test\nsetup: npm ci\n' }, cacheBytes: 512 * 1024 * 1024 });
    wireRemote(h);
    openPullRequest(h, { number: 12, head: 'feature', files: { 'vendor/dep-a/package.json': DEP(SHIM_SCRIPT) } });
    expect((await h.send('issue_comment', pullRequestComment(h, 12, '/agent retry'))).status).toBe(200);
    await h.settle();
    const prSetup = statusComments(h, 12).at(-1) ?? '';
    expect(prSetup).toMatch(/npm ci · installed \([\d.]+ s\), cached/);

    expect((await h.send('issues', labeled(h))).status).toBe(200);
    await h.settle();
    const status = statusComments(h, 7).at(-1) ?? '';
    expect(status).toMatch(/npm ci · installed/);
    expect(status).not.toMatch(/restored from cache/);
    // The baseline ran the real tests against a real install: add subtracts on main.
    expect(shownToModel(model.requests)).toMatch(/on main: the test command exited 1/);
    expect(h.state.pulls.filter((p) => p.author !== 'octocat')).toHaveLength(0);
    expect(h.remoteTree('greenfix/issue-7')).toBeNull();
  }, 180_000);
});
