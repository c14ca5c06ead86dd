import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import nock from 'nock';
import { startHarness, turn, type Harness } from './harness.js';
import { labeled } from './issue-payloads.js';
import { RED_BASE_REPO as REPO, TAP_VERIFY } from '../support/red-base-repo.js';

const CONFIG = `verify: ${TAP_VERIFY}\n`;
const FIX = turn(['edit_file', { path: 'lib.mjs', old: 'a - b', new: 'a + b' }]);
const TESTS = turn(['run_tests', {}]);

describe('baseline-aware verification through the app', () => {
  let h: Harness;
  afterEach(async () => h?.close());
  afterAll(() => nock.restore());

  const statusComment = () => h.state.comments.find((c) => c.body.includes('greenfix:status'))?.body ?? '';

  it('no_new_failures: a PR whose evidence lists fail → pass and the still-failing test; the comment says what main has', async () => {
    const script = [FIX, TESTS, turn(['finish', { summary: 'add() adds now.' }])];
    h = await startHarness({ files: REPO, script, state: { config: `${CONFIG}verify_mode: no_new_failures\n` } });
    await h.send('issues', labeled(h));
    await h.settle();
    expect(h.state.pulls).toHaveLength(1);
    const body = h.state.pulls[0]!.body;
    expect(body).toContain('under `verify_mode: no_new_failures`');
    expect(body).toContain('**Tests** (node --test (TAP), verify_mode `no_new_failures`): 3 tests, 2 passed, 1 failed, 0 skipped.');
    expect(body).toContain('- fail → pass (1): `adds`');
    expect(body).toContain('- pass → fail: none');
    expect(body).toContain('- still failing, as on the base (1): `unrelated`');
    expect(body).toContain('- baseline, on the base: 3 tests, 2 failing (exit code 1)');
    const check = h.state.checkRuns[0]!;
    expect(check.output.title).toMatch(/^Verified \(no new failures\): /);
    expect(check.output.summary).toContain('- fail → pass (1): `adds`');
    expect(statusComment()).toContain('- ✅ Baseline — on main: 3 tests, 2 failing: adds, unrelated');
  });

  it('all_pass with an unrelated failing test on main: no PR, and the comment names it', async () => {
    const script = [FIX, TESTS, turn(['finish', { summary: 'unrelated still fails', gave_up: true }])];
    h = await startHarness({ files: REPO, script, state: { config: CONFIG } });
    await h.send('issues', labeled(h));
    await h.settle();
    expect(h.state.pulls).toHaveLength(0);
    const comment = statusComment();
    expect(comment).toContain('No pull request');
    expect(comment).toContain('Last test run: tests failed (exit code: 1): not verified: the test command did not pass: failing unrelated (unrelated failed on the base too).');
    expect(comment).toContain('Baseline on main: 3 tests, 2 failing: adds, unrelated.');
  });

  it('a fix that breaks a test that passed on main: no PR, the comment names the broken test', async () => {
    const breaking = turn(['edit_file', { path: 'lib.mjs', old: 'keep = () => 1', new: 'keep = () => 2' }]);
    const script = [FIX, breaking, TESTS, turn(['finish', { summary: 'broke keeps', gave_up: true }])];
    h = await startHarness({ files: REPO, script, state: { config: `${CONFIG}verify_mode: no_new_failures\n` } });
    await h.send('issues', labeled(h));
    await h.settle();
    expect(h.state.pulls).toHaveLength(0);
    expect(statusComment()).toContain('not verified: tests that passed on the base fail now: keeps.');
  });
});
