import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import { join } from 'node:path';
import nock from 'nock';
import { BUGGY_REPO } from '../cli/helpers.js';
import { git } from '../support/git.js';
import { startHarness, turn, type Harness } from './harness.js';
import { labeled } from './issue-payloads.js';

const FIX = turn(['edit_file', { path: 'lib.sh', old: '$1 - $2', new: '$1 + $2' }]);
const SCRIPT = [FIX, turn(['run_tests', {}]), turn(['finish', { summary: 'add() subtracted; it adds now.' }])];

describe('labelling an issue agent-fix', () => {
  let h: Harness;
  afterEach(async () => h?.close());
  afterAll(() => nock.restore());

  it('opens one PR whose branch tree is the verified tree, with a status comment and a check run', async () => {
    h = await startHarness({ files: BUGGY_REPO, script: SCRIPT, state: { config: 'verify: bash test.sh\n' } });
    const answer = await h.send('issues', labeled(h));
    expect(answer.status).toBe(200);
    await h.settle();

    const tree = h.remoteTree('greenfix/issue-7');
    expect(tree).toMatch(/^[0-9a-f]{40}$/);
    expect(h.state.pulls).toHaveLength(1);
    const pr = h.state.pulls[0]!;
    expect(pr).toMatchObject({ head: 'greenfix/issue-7', base: 'main', title: 'Fix #7: add() gives the wrong answer' });
    expect(pr.body).toContain('Fixes #7');
    expect(pr.body).toContain(tree!);
    const commit = git(h.remote, 'rev-parse', 'refs/heads/greenfix/issue-7');
    expect(git(h.remote, 'rev-parse', `${commit}^`)).toBe(git(h.remote, 'rev-parse', 'refs/heads/main'));
    expect(git(h.remote, 'log', '-1', '--format=%B', commit)).toContain(`Verified-tree: ${tree}`);

    expect(h.state.checkRuns).toEqual([expect.objectContaining({ name: 'greenfix/verify', head_sha: commit, conclusion: 'success' })]);
    expect(h.state.checkRuns[0]!.output.summary ?? '').toContain(tree!);
    const status = h.state.comments.filter((c) => c.body.includes('greenfix:status'));
    expect(status).toHaveLength(1);
    expect(status[0]!.body).toContain(`#${pr.number}`);
    expect(h.state.reactions).toContainEqual({ issue: 7, commentId: null, content: 'eyes' });
    // The job's worktree is gone, and the mirror forgot it.
    const mirror = join(h.dir, 'work', 'mirrors', '1296269.git');
    const worktrees = git(mirror, 'worktree', 'list', '--porcelain').split('\n').filter((l) => l.startsWith('worktree '));
    expect(worktrees).toEqual([`worktree ${mirror}`]); // the bare mirror itself, nothing else
  });
});
