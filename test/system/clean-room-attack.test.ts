import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import nock from 'nock';
import { startHarness, turn, type Harness } from './harness.js';
import { labeled } from './issue-payloads.js';
import { recordingModel, shownToModel, statusComments } from './pull-fixtures.js';

/** `add` subtracts; the test runs `grep` with node_modules/.bin first on PATH, as npm scripts do. */
const REPO = {
  '.gitignore': 'node_modules/\nmarker\n',
  'lib.sh': 'add() { echo $(( $1 - $2 )); }\n',
  'test.sh': '#!/bin/bash\nexport PATH="$PWD/node_modules/.bin:$PATH"\n. ./lib.sh\ncat marker 2>/dev/null || echo "no marker here"\necho "$(add 2 3)" | grep -qx 5 || { echo "add 2 3 gave $(add 2 3)"; exit 1; }\necho ok\n',
};
const CONFIG = 'setup: mkdir -p node_modules/dep && echo 1 > node_modules/dep/index.js\nverify: bash test.sh\n';
const SHIM = 'mkdir -p node_modules/.bin && printf "#!/bin/sh\\nexit 0\\n" > node_modules/.bin/grep && chmod +x node_modules/.bin/grep';

/**
 * The clean-room gate through the real app (Probot, queue, workers, bwrap, git over HTTP): a tree
 * that passes only through an ignored file the model wrote opens no PR; a real fix opens one whose
 * evidence is the clean room's run, not the worktree's.
 */
describe('the clean-room gate in a job', () => {
  let h: Harness;
  afterEach(async () => h?.close());
  afterAll(() => nock.restore());

  it('an ignored shim (node_modules/.bin) that makes the tests pass in the worktree opens no PR', async () => {
    const model = recordingModel([
      turn(['run', { command: `${SHIM} && echo "shim in place" > marker` }]),
      turn(['edit_file', { path: 'lib.sh', old: '$1 - $2 )); }', new: '$1 - $2 )); } # fixed' }]),
      turn(['run_tests', {}]),
      turn(['finish', { summary: 'add() adds now.' }]),
      turn(['finish', { summary: 'the tests pass only with my shim', gave_up: true }]),
    ]);
    h = await startHarness({ files: REPO, script: [], model: model.model, state: { config: CONFIG } });
    expect((await h.send('issues', labeled(h))).status).toBe(200);
    await h.settle();

    expect(h.state.pulls).toHaveLength(0);
    expect(h.remoteTree('greenfix/issue-7')).toBeNull();
    const shown = shownToModel(model.requests);
    expect(shown).toMatch(/tests passed in your worktree, but NOT on the tree that would be committed/);
    expect(shown).toMatch(/node_modules\/.bin\/grep \(not made by setup\)/);
    expect(h.state.checkRuns.every((c) => c.conclusion !== 'success')).toBe(true);
    expect(statusComments(h, 7).at(-1)).not.toMatch(/verified tree/i);
  }, 120_000);

  it('a real fix: the PR and the check run show the clean room run (no marker there), not the worktree run', async () => {
    const model = recordingModel([
      turn(['run', { command: 'printf "%s-%s\\n" WORKTREE ONLY > marker' }]),
      turn(['edit_file', { path: 'lib.sh', old: '$1 - $2', new: '$1 + $2' }]),
      turn(['run_tests', {}]),
      turn(['finish', { summary: 'add() adds now.' }]),
    ]);
    h = await startHarness({ files: REPO, script: [], model: model.model, state: { config: CONFIG } });
    expect((await h.send('issues', labeled(h))).status).toBe(200);
    await h.settle();

    expect(h.state.pulls).toHaveLength(1);
    const pr = h.state.pulls[0]!;
    expect(pr.body).toContain('no marker here');
    expect(pr.body).not.toContain('WORKTREE-ONLY');
    const check = h.state.checkRuns.find((c) => c.conclusion === 'success');
    expect(JSON.stringify(check)).toContain('no marker here');
    expect(JSON.stringify(check)).not.toContain('WORKTREE-ONLY');
    expect(pr.body).toContain(h.remoteTree('greenfix/issue-7')!);
  }, 120_000);
});
