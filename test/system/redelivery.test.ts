import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import nock from 'nock';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import type { ScriptTurn } from '../../src/model/scripted-script.js';
import type { ChatModel } from '../../src/model/types.js';
import { BUGGY_REPO } from '../cli/helpers.js';
import { git } from '../support/git.js';
import { startHarness, turn, type Harness } from './harness.js';
import { commented, labeled } from './issue-payloads.js';

const CONFIG = 'verify: bash test.sh\n';
const fix = (replacement: string): ScriptTurn[] => [
  turn(['edit_file', { path: 'lib.sh', old: '$1 - $2', new: replacement }]),
  turn(['run_tests', {}]),
  turn(['finish', { summary: `add() computes ${replacement}.` }]),
];
const PLUS = fix('$1 + $2');
const SWAPPED = fix('$2 + $1');

/** A scripted model whose script the test switches between jobs. */
function switchableModel(initial: ScriptTurn[]): { model: ChatModel; use(script: ScriptTurn[]): void } {
  let current = new ScriptedModel(initial);
  return {
    model: { name: 'scripted', complete: (request) => current.complete(request) },
    use: (script) => {
      current = new ScriptedModel(script);
    },
  };
}

describe('deliveries that come again', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });
  afterAll(() => nock.restore());

  const writes = (x: Harness) => x.state.requests.filter((r) => !r.startsWith('GET ')).length;
  const statusComments = (x: Harness) => x.state.comments.filter((c) => c.body.includes('greenfix:status'));
  const branchHead = (x: Harness) => git(x.remote, 'rev-parse', 'refs/heads/greenfix/issue-7');

  it('ignores a redelivery after the job finished; a new delivery updates the one PR and moves its branch', async () => {
    const script = switchableModel(PLUS);
    h = await startHarness({ files: BUGGY_REPO, script: [], model: script.model, state: { config: CONFIG } });
    const main = git(h.remote, 'rev-parse', 'refs/heads/main');

    // 1. The label → one job, one PR.
    expect((await h.send('issues', labeled(h), 'delivery-label')).status).toBe(200);
    await h.settle();
    expect(h.state.pulls).toHaveLength(1);
    const pr = h.state.pulls[0]!;
    const first = { head: branchHead(h), tree: h.remoteTree('greenfix/issue-7')! };
    expect(pr.body).toContain(first.tree);

    // 2. GitHub redelivers it (hours later: dedupe by delivery id has no expiry) → nothing new.
    const before = { writes: writes(h), comments: h.state.comments.length, reactions: h.state.reactions.length };
    expect((await h.send('issues', labeled(h), 'delivery-label')).status).toBe(200);
    await h.settle();
    expect(await h.queue.listBySubject('1296269#7')).toHaveLength(1);
    expect({ writes: writes(h), comments: h.state.comments.length, reactions: h.state.reactions.length }).toEqual(before);

    // 3. `/agent retry` on the issue (a new delivery) → a second job, the same PR, updated.
    script.use(SWAPPED);
    expect((await h.send('issue_comment', commented(h, '/agent retry write it as $2 + $1'), 'delivery-retry')).status).toBe(200);
    await h.settle();
    const jobs = await h.queue.listBySubject('1296269#7');
    expect(jobs.map((j) => [j.state, j.attempts])).toEqual([['succeeded', 1], ['succeeded', 1]]);
    expect(h.state.pulls).toHaveLength(1);
    const second = { head: branchHead(h), tree: h.remoteTree('greenfix/issue-7')! };
    expect(second.tree).not.toBe(first.tree);
    // A retry of an issue replaces greenfix's earlier attempt: one commit on main, not stacked.
    expect(git(h.remote, 'rev-parse', `${second.head}^`)).toBe(main);
    expect(git(h.remote, 'show', `${second.head}:lib.sh`)).toContain('$2 + $1');
    expect(h.state.pulls[0]).toMatchObject({ number: pr.number, head: 'greenfix/issue-7', state: 'open' });
    expect(h.state.pulls[0]!.body).toContain(second.tree);
    expect(h.state.pulls[0]!.body).not.toContain(first.tree);
    expect(h.state.pulls[0]!.body).toContain(jobs[0]!.id);
    expect(statusComments(h)).toHaveLength(2); // one per job
    expect(h.state.checkRuns.filter((r) => r.head_sha === second.head)).toEqual([expect.objectContaining({ conclusion: 'success' })]);

    // 4. That delivery redelivered → nothing new either.
    const after = { writes: writes(h), comments: h.state.comments.length };
    await h.send('issue_comment', commented(h, '/agent retry write it as $2 + $1'), 'delivery-retry');
    await h.settle();
    expect(await h.queue.listBySubject('1296269#7')).toHaveLength(2);
    expect({ writes: writes(h), comments: h.state.comments.length }).toEqual(after);

    // 5. The label again (new delivery), back to the first fix → the branch moves back to that tree.
    script.use(PLUS);
    // Labelled again: GitHub dates the issue's change anew (the same time would be a replay).
    await h.send('issues', labeled(h, { issue: { ...(labeled(h)['issue'] as object), updated_at: '2026-12-02T09:00:00Z' } }), 'delivery-label-again');
    await h.settle();
    expect(await h.queue.listBySubject('1296269#7')).toHaveLength(3);
    expect(h.state.pulls).toHaveLength(1);
    expect(h.remoteTree('greenfix/issue-7')).toBe(first.tree);
    expect(git(h.remote, 'rev-parse', `${branchHead(h)}^`)).toBe(main);
    expect(h.state.pulls[0]!.body).toContain(first.tree);
    expect(git(h.remote, 'for-each-ref', '--format=%(refname)', 'refs/heads/greenfix')).toBe('refs/heads/greenfix/issue-7');
    expect(statusComments(h)).toHaveLength(3);
  });
});
