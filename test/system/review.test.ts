import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import nock from 'nock';
import type { ChatModel } from '../../src/model/types.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { subjectKey } from '../../src/triggers/types.js';
import { git } from '../support/git.js';
import { threadId } from '../support/fake-github-reviews.js';
import { NODE_FIX, NODE_REPO } from '../support/node-repo.js';
import { startHarness, turn, waitFor, type Harness } from './harness.js';
import { labeled } from './issue-payloads.js';
import { openPullRequest, pullRequestComment, recordingModel, remoteSha, shownToModel, statusComments, wireRemote, type OpenedPull } from './pull-fixtures.js';
import { addReview, addThread, repliesTo, reviewCommentCreated, reviewSubmitted } from './review-fixtures.js';

/**
 * Review iteration end to end: signed review webhooks into the real app, the stateful fake GitHub
 * (review comments, replies, GraphQL threads), real git, bwrap and tests (`npm test`, detected:
 * no `.github/greenfix.yml` unless a test sets one), the model scripted.
 */
const PR_FILES = { 'sum.js': 'exports.sum = (a, b) => a - b;\nexports.twice = (a) => 2 * a;\n' };
const HUNK_1 = '@@ -1 +1,2 @@\n exports.sum = (a, b) => a - b;';
const HUNK_2 = '@@ -1 +1,2 @@\n exports.sum = (a, b) => a - b;\n+exports.twice = (a) => 2 * a;';
const SUMMARY = 'sum() adds now.\nThread 1: sum() computed a - b; it is a + b now.\nThread 2: twice() says what it does, so I kept the name.';
const SCRIPT = [turn(NODE_FIX), turn(['run_tests', {}]), turn(['finish', { summary: SUMMARY }])];
const REPO_ID = { id: 1296269 };

async function start(options: { config?: string; script?: typeof SCRIPT; model?: ChatModel } = {}): Promise<{ h: Harness; pr: OpenedPull; shown: () => string }> {
  const { model, requests } = recordingModel(options.script ?? SCRIPT);
  const h = await startHarness({ files: NODE_REPO, script: [], model: options.model ?? model, state: { config: options.config ?? null, roles: { octocat: 'admin', mallory: 'read' } } });
  wireRemote(h);
  const pr = openPullRequest(h, { number: 12, head: 'greenfix/issue-7', title: 'Fix #7: sum is wrong', author: 'greenfix[bot]', files: PR_FILES });
  return { h, pr, shown: () => shownToModel(requests) };
}

function twoThreadReview(h: Harness, pr: OpenedPull, body = '/agent', state: 'COMMENTED' | 'CHANGES_REQUESTED' = 'COMMENTED', user = 'octocat') {
  return addReview(h, pr, user, body, state, [
    { path: 'sum.js', line: 1, body: 'This subtracts.', diffHunk: HUNK_1 },
    { path: 'sum.js', line: 2, body: 'Rename twice to double?', diffHunk: HUNK_2 },
  ]);
}

/** The PR's branch got exactly one new commit, on top of its head, whose tree the tests passed on. */
function expectOneVerifiedCommit(h: Harness, pr: OpenedPull): { head: string; tree: string } {
  const head = remoteSha(h, `refs/heads/${pr.head}`)!;
  expect(head).not.toBe(pr.headSha);
  expect(git(h.remote, 'rev-parse', `${head}^`)).toBe(pr.headSha);
  expect(git(h.remote, 'rev-list', '--count', `${pr.headSha}..${head}`)).toBe('1');
  const tree = h.remoteTree(pr.head)!;
  expect(git(h.remote, 'log', '-1', '--format=%B', head)).toContain(`Verified-tree: ${tree}`);
  expect(git(h.remote, 'show', `${head}:sum.js`)).toContain('a + b');
  expect(h.state.checkRuns).toContainEqual(expect.objectContaining({ name: 'greenfix/verify', head_sha: head, conclusion: 'success' }));
  return { head, tree };
}

describe('review iteration', () => {
  let h: Harness;
  afterEach(async () => h?.close());
  afterAll(() => nock.restore());

  it('no config: /agent review with two inline comments → one job, one verified commit, a reply per thread with commit and tree', async () => {
    const started = await start();
    h = started.h;
    const { pr } = started;
    h.state.comments.push(
      { id: h.state.nextId++, issue: 7, body: 'I tried sum(2, 3) and got -1.', user: 'alice' },
      { id: h.state.nextId++, issue: 12, body: 'Please keep twice() exported.', user: 'bob' },
      { id: h.state.nextId++, issue: 12, body: 'BOT NOISE: deploy preview ready', user: 'netlify[bot]' },
    );
    const review = twoThreadReview(h, pr);
    expect((await h.send('pull_request_review', reviewSubmitted(h, pr, review))).status).toBe(200);
    await h.settle();

    expect(await h.queue.listBySubject(subjectKey(REPO_ID, 12))).toHaveLength(1);
    const { head, tree } = expectOneVerifiedCommit(h, pr);
    const [first, second] = review.comments;
    const one = repliesTo(h, first!);
    const two = repliesTo(h, second!);
    expect(one).toHaveLength(1);
    expect(two).toHaveLength(1);
    for (const reply of [one[0]!, two[0]!]) {
      expect(reply).toContain(head.slice(0, 12));
      expect(reply).toContain(`tests passed on tree \`${tree}\``);
    }
    expect(one[0]).toContain('it is a + b now');
    expect(one[0]).toContain('Changed in');
    expect(two[0]).toContain('kept the name');
    expect(two[0]).toContain('unchanged in');
    // Resolving is off by default.
    expect(h.state.resolvedThreads).toEqual([]);

    const shown = started.shown();
    expect(shown).toContain('### Thread 1: sum.js, line 1 (new side)');
    expect(shown).toContain('### Thread 2: sum.js, line 2 (new side)');
    expect(shown).toContain('@octocat: This subtracts.');
    expect(shown).toContain('@octocat: Rename twice to double?');
    expect(shown).toContain(HUNK_2);
    expect(shown).toContain('I tried sum(2, 3) and got -1.');
    expect(shown).toContain('Please keep twice() exported.');
    expect(shown).not.toContain('BOT NOISE');
    expect(shown).toContain("The pull request's diff against main");
    expect(shown).toContain('+exports.twice = (a) => 2 * a;');
    expect(statusComments(h, 12).join('\n')).toContain('Answered 2 review thread(s)');
    const status = statusComments(h, 12).join('\n');
    expect(status).toContain('worked on the review');
    // Metrics know the job kind.
    const metrics = await (await fetch(`${h.app.url}/metrics`)).text();
    expect(metrics).toMatch(/greenfix_job_duration_seconds_count\{kind="review",outcome="published"\} 1/);

    // Request changes without /agent: off by default, so nothing more happens.
    const plain = twoThreadReview(h, pr, 'Please fix these', 'CHANGES_REQUESTED');
    const answer = await h.send('pull_request_review', reviewSubmitted(h, pr, plain));
    expect(answer.status).toBe(200);
    await h.settle();
    expect(await h.queue.listBySubject(subjectKey(REPO_ID, 12))).toHaveLength(1);
    expect(remoteSha(h, `refs/heads/${pr.head}`)).toBe(head);
  });

  it('review.on_request_changes + resolve_threads: a changes_requested review is answered; only the changed thread is resolved, never an outdated one', async () => {
    const summary = `${SUMMARY}\nThread 3: the old line is gone; sum.js line 1 is fixed.`;
    const started = await start({ config: 'review:\n  on_request_changes: true\n  resolve_threads: true\n', script: [turn(NODE_FIX), turn(['run_tests', {}]), turn(['finish', { summary }])] });
    h = started.h;
    const { pr } = started;
    const review = addReview(h, pr, 'octocat', 'Please fix these', 'CHANGES_REQUESTED', [
      { path: 'sum.js', line: 1, body: 'This subtracts.', diffHunk: HUNK_1 },
      { path: 'sum.js', line: 2, body: 'Rename twice to double?', diffHunk: HUNK_2 },
      { path: 'sum.js', line: 1, body: 'An older remark on the first line.', diffHunk: HUNK_1, outdated: true },
    ]);
    expect((await h.send('pull_request_review', reviewSubmitted(h, pr, review))).status).toBe(200);
    await h.settle();

    expectOneVerifiedCommit(h, pr);
    const [first, second, outdated] = review.comments;
    expect(h.state.resolvedThreads).toEqual([threadId(first!.id)]);
    expect(repliesTo(h, second!)).toHaveLength(1);
    expect(repliesTo(h, outdated!)).toHaveLength(1);
    expect(repliesTo(h, outdated!)[0]).toContain('unchanged in');
    const shown = started.shown();
    expect(shown).toContain('### Thread 3: sum.js, line 1 (new side) (outdated: the lines changed since the comment)');
    expect(shown).toContain('The review by @octocat:\nPlease fix these');
    expect(statusComments(h, 12).join('\n')).toContain('Answered 3 review thread(s), resolved 1');
  });

  it('a review by a read-only user → no job, no push, no reply in a thread; the one outsider answer, once; a quiet changes_requested → no answer', async () => {
    const started = await start({ config: 'review:\n  on_request_changes: true\n' });
    h = started.h;
    const { pr } = started;
    for (const delivery of ['d-1', 'd-2']) {
      const review = twoThreadReview(h, pr, '/agent', 'COMMENTED', 'mallory');
      expect((await h.send('pull_request_review', reviewSubmitted(h, pr, review, 'mallory'), delivery)).status).toBe(200);
    }
    const quiet = twoThreadReview(h, pr, 'Needs work', 'CHANGES_REQUESTED', 'mallory');
    expect((await h.send('pull_request_review', reviewSubmitted(h, pr, quiet, 'mallory'), 'd-3')).status).toBe(200);
    await h.settle();

    expect(await h.queue.listBySubject(subjectKey(REPO_ID, 12))).toEqual([]);
    expect(remoteSha(h, `refs/heads/${pr.head}`)).toBe(pr.headSha);
    expect(h.state.reviewComments.filter((c) => c.user.endsWith('[bot]'))).toEqual([]);
    const answers = h.state.comments.filter((c) => c.issue === 12);
    expect(answers).toHaveLength(1);
    expect(answers[0]!.body).toContain('only takes `/agent` commands from people with write access');
  });

  it('a single /agent review comment (a reply in a thread) → only that thread is addressed', async () => {
    const started = await start({ script: [turn(NODE_FIX), turn(['run_tests', {}]), turn(['finish', { summary: 'Thread 1: sum() adds now.' }])] });
    h = started.h;
    const { pr } = started;
    const review = twoThreadReview(h, pr, 'Two remarks');
    const [first, second] = review.comments;
    const command = addThread(h, pr, 'octocat', { path: 'sum.js', line: 1, body: '/agent make it add', diffHunk: HUNK_1 });
    command.inReplyTo = first!.id;
    expect((await h.send('pull_request_review_comment', reviewCommentCreated(h, pr, command))).status).toBe(200);
    await h.settle();

    expectOneVerifiedCommit(h, pr);
    expect(repliesTo(h, first!)).toHaveLength(1);
    expect(repliesTo(h, first!)[0]).toContain('sum() adds now.');
    expect(repliesTo(h, second!)).toEqual([]);
    const shown = started.shown();
    expect(shown).toContain('@octocat: This subtracts.\n@octocat: /agent make it add');
    expect(shown).not.toContain('Rename twice to double?');
    expect(shown).not.toContain('### Thread 2');
    expect(shown).toContain('make it add');
    // 👀 on the pull request: seen.
    expect(h.state.reactions).toContainEqual({ issue: 12, commentId: null, content: 'eyes' });
  });

  it('a review arriving while a retry runs for the same PR supersedes it; the review job publishes', async () => {
    const scripted = new ScriptedModel(SCRIPT);
    let calls = 0;
    const model: ChatModel = {
      name: scripted.name,
      complete: (request) => {
        calls += 1;
        if (calls > 1) return scripted.complete(request);
        // The first job's first model call waits until the job is stopped.
        return new Promise((_resolve, reject) => request.signal?.addEventListener('abort', () => reject(request.signal?.reason), { once: true }));
      },
    };
    const started = await start({ model });
    h = started.h;
    const { pr } = started;
    expect((await h.send('issue_comment', pullRequestComment(h, 12, '/agent retry'))).status).toBe(200);
    await waitFor(() => calls === 1, 'the retry job to ask the model');
    const review = twoThreadReview(h, pr);
    expect((await h.send('pull_request_review', reviewSubmitted(h, pr, review))).status).toBe(200);
    await h.settle();

    const jobs = await h.queue.listBySubject(subjectKey(REPO_ID, 12));
    expect(jobs.map((j) => [j.request.kind, j.state]).sort()).toEqual([['retry', 'cancelled'], ['review', 'succeeded']]);
    expectOneVerifiedCommit(h, pr);
    expect(repliesTo(h, review.comments[0]!)).toHaveLength(1);
    expect(repliesTo(h, review.comments[1]!)).toHaveLength(1);
  });

  it("an issue job's task holds the issue's comments by people", async () => {
    const { model, requests } = recordingModel(SCRIPT);
    h = await startHarness({ files: NODE_REPO, script: [], model });
    wireRemote(h);
    h.state.comments.push({ id: h.state.nextId++, issue: 7, body: 'I tried X, it failed with Y.', user: 'alice' });
    expect((await h.send('issues', labeled(h))).status).toBe(200);
    await h.settle();
    expect(h.state.pulls.some((p) => p.head === 'greenfix/issue-7')).toBe(true);
    const shown = shownToModel(requests);
    expect(shown).toContain("## The issue's conversation (newest last)\n@alice: I tried X, it failed with Y.");
  });
});
