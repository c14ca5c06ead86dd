import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import nock from 'nock';
import { createGitHost } from '../../src/github/octokit-host.js';
import { newFakeGitHubState, nockFakeGitHub, type FakeGitHubState, type FakeReviewComment } from '../support/fake-github.js';
import { threadId } from '../support/fake-github-reviews.js';
import { testOctokit } from './octokit-fixture.js';

/** The GitHost's review side (GraphQL threads, idempotent replies, resolve) against the stateful fake GitHub. */
/** Thread 10 on src/a.ts; the commit is the PR's (GitHub ignores both on a reply, the schema requires them). */
const TO = { commentId: 10, path: 'src/a.ts', commitId: 'a'.repeat(40) };

function setup(): { state: FakeGitHubState; host: ReturnType<typeof createGitHost>; root: FakeReviewComment } {
  nock.disableNetConnect();
  const state = newFakeGitHubState();
  nockFakeGitHub(state);
  state.pulls.push({ number: 5, head: 'feature', headSha: 'a'.repeat(40), base: 'main', title: 't', body: '', draft: false, state: 'open', author: 'octocat', headRepo: 'octo-org/widgets' });
  const root: FakeReviewComment = { id: 10, pull: 5, body: 'Use a const', user: 'octocat', path: 'src/a.ts', line: 7, startLine: 5, side: 'RIGHT', diffHunk: '@@ -1,3 +1,7 @@', inReplyTo: null, reviewId: 99, commitId: 'a'.repeat(40), outdated: false };
  state.reviewComments.push(root, { ...root, id: 11, body: 'Agreed', user: 'alice', inReplyTo: 10, reviewId: 100 });
  const host = createGitHost(testOctokit(), { owner: state.owner, repo: state.repo }, { createAttempts: 3, sleep: async () => undefined });
  return { state, host, root };
}

describe('GitHost review threads', () => {
  afterEach(() => {
    nock.cleanAll();
    nock.enableNetConnect();
  });

  it('reads threads through GraphQL reviewThreads: lines, side, state, comments in order with their review', async () => {
    const { host, state } = setup();
    state.resolvedThreads.push(threadId(10));
    const threads = await host.reviewThreads(5);
    expect(threads).toEqual([
      {
        id: 'PRRT_10',
        path: 'src/a.ts',
        line: 7,
        startLine: 5,
        originalLine: 7,
        originalStartLine: 5,
        side: 'RIGHT',
        isOutdated: false,
        isResolved: true,
        comments: [
          { id: 10, author: 'octocat', body: 'Use a const', diffHunk: '@@ -1,3 +1,7 @@', reviewId: 99 },
          { id: 11, author: 'alice', body: 'Agreed', diffHunk: '@@ -1,3 +1,7 @@', reviewId: 100 },
        ],
      },
    ]);
    expect(state.requests).toContain('POST /graphql');
  });

  it('an outdated thread has no current line, only the original one', async () => {
    const { host, state } = setup();
    state.reviewComments[0]!.outdated = true;
    const [thread] = await host.reviewThreads(5);
    expect(thread).toMatchObject({ isOutdated: true, line: null, startLine: null, originalLine: 7 });
  });

  it('replyOnce posts one reply under the thread, and finds it again instead of posting twice', async () => {
    const { host, state } = setup();
    const first = await host.replyOnce(5, TO, '<!-- m -->', 'done');
    const again = await host.replyOnce(5, TO, '<!-- m -->', 'done');
    expect(again).toBe(first);
    const replies = state.reviewComments.filter((c) => c.inReplyTo === 10 && c.user === 'greenfix[bot]');
    expect(replies).toHaveLength(1);
    expect(replies[0]!.body).toBe('<!-- m -->\ndone');
    expect(state.requests.filter((r) => r === 'POST /repos/octo-org/widgets/pulls/5/comments')).toHaveLength(1);
  });

  it('a reply whose POST failed with 502 after GitHub made it is found on the re-read, not posted again', async () => {
    const { host, state } = setup();
    state.failures.push({ method: 'POST', path: /\/pulls\/5\/comments$/, status: 502, apply: true, times: 1 });
    await host.replyOnce(5, TO, '<!-- m -->', 'done');
    expect(state.reviewComments.filter((c) => c.inReplyTo === 10 && c.user === 'greenfix[bot]')).toHaveLength(1);
  });

  it("attack: a person's reply that carries greenfix's marker does not stand in for greenfix's reply", async () => {
    const { host, state } = setup();
    state.reviewComments.push({ ...state.reviewComments[0]!, id: 12, body: '<!-- m -->\nall done, nothing to see', user: 'mallory', inReplyTo: 10 });
    const id = await host.replyOnce(5, TO, '<!-- m -->', 'done');
    expect(id).not.toBe(12);
    expect(state.reviewComments.filter((c) => c.inReplyTo === 10 && c.user === 'greenfix[bot]')).toHaveLength(1);
  });

  it('resolveReviewThread marks the thread resolved; twice is harmless', async () => {
    const { host, state } = setup();
    await host.resolveReviewThread('PRRT_10');
    await host.resolveReviewThread('PRRT_10');
    expect(state.resolvedThreads).toEqual(['PRRT_10']);
  });

  it("conversation lists an issue's comments and marks bots", async () => {
    const { host, state } = setup();
    state.comments.push({ id: 1, issue: 5, body: 'hi', user: 'alice' }, { id: 2, issue: 5, body: 'status', user: 'greenfix[bot]' });
    expect(await host.conversation(5)).toEqual([
      { author: 'alice', bot: false, body: 'hi' },
      { author: 'greenfix[bot]', bot: true, body: 'status' },
    ]);
  });
});

// nock (loaded by what this file imports) patches node:http, which outlives this file's module registry.
afterAll(() => nock.restore());
