import { join } from 'node:path';
import { branches, keptJournal, runCli, writeScript, type CliRun } from './helpers.js';
import { cleanup, tempDir } from '../support/temp-dir.js';
import { git } from '../support/git.js';
import { makeRepo } from '../support/make-repo.js';

/** node:test, TAP: `adds` fails on the base (add subtracts); `keeps zero` passes. */
const REPO = {
  'lib.mjs': 'export const add = (a, b) => a - b;\n',
  'all.test.mjs': "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { add } from './lib.mjs';\ntest('keeps zero', () => assert.equal(add(0, 0), 0));\ntest('adds', () => assert.equal(add(2, 3), 5));\n",
};
const VERIFY = 'node --test --test-reporter=tap';
const DELETE: [string, unknown] = ['edit_file', { path: 'all.test.mjs', old: "test('adds', () => assert.equal(add(2, 3), 5));\n", new: '' }];
const SKIP: [string, unknown] = ['edit_file', { path: 'all.test.mjs', old: "test('adds', () =>", new: "test.skip('adds', () =>" }];

/**
 * Deleting or skipping the failing test is not a fix (issue 20): through the built CLI, real
 * node:test output, a scripted model. Under no_new_failures too, and named in the evidence when a
 * repository allows it.
 */
describe('greenfix fix: a removed or skipped test', () => {
  let dir: string;
  let repo: string;
  const fix = (turns: Array<Array<[string, unknown]>>, ...extra: string[]): Promise<CliRun> =>
    runCli(['fix', '--repo', repo, '--task', 'add subtracts', '--verify', VERIFY, '--model', `scripted:${writeScript(dir, turns)}`, '--json', ...extra], { GREENFIX_WORKDIR: join(dir, 'work') });

  beforeEach(() => {
    dir = tempDir('greenfix-removed-');
    repo = makeRepo(join(dir, 'repo'), REPO);
  });
  afterEach(() => cleanup(dir));

  it.each([
    ['deleted', DELETE, /tests that ran on the base did not run: adds/, []],
    ['skipped', SKIP, /now skipped: adds/, []],
    ['deleted, no_new_failures', DELETE, /did not run: adds/, ['--verify-mode', 'no_new_failures']],
  ])('the failing test %s: not verified, no commit, the model is told which', async (_name, edit, told, extra) => {
    const r = await fix([[edit], [['run_tests', {}]], [['finish', { summary: 'tests pass' }]], [['finish', { summary: 'no', gave_up: true }]]], ...(extra as string[]));
    expect(r.code).toBe(1);
    expect(r.json).toMatchObject({ commit: null });
    expect(branches(repo)).toEqual([]);
    expect(keptJournal(r)).toMatch(told as RegExp);
  });

  it('with --allow-removed-tests the tree verifies, and the evidence names the removed test', async () => {
    const r = await fix([[DELETE], [['run_tests', {}]], [['finish', { summary: 'dropped the test' }]]], '--allow-removed-tests');
    expect(r.code).toBe(0);
    expect(git(repo, 'rev-parse', `${String(r.json?.branch)}^{tree}`)).toBe(r.json?.verifiedTree);
    expect(r.json?.tests).toMatchObject({ removed: ['adds'] });
    expect(r.stderr).toMatch(/adds/);
  });
});
