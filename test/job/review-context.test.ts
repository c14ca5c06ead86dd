import { describe, expect, it } from '@jest/globals';
import { renderThreadReply } from '../../src/github/render-thread-reply.js';
import type { ReviewThread } from '../../src/github/types.js';
import type { JobRequest } from '../../src/triggers/types.js';
import { toAddressed } from '../../src/job/answer-threads.js';
import { jobTask } from '../../src/job/task.js';
import { oldRanges, touches } from '../../src/job/line-changes.js';
import { addressedThreads } from '../../src/job/review-scope.js';
import { lineRange, TASK_CAPS, threadNotes } from '../../src/job/task-context.js';

const thread = (id: number, over: Partial<ReviewThread> = {}, reviewId = 1): ReviewThread => ({
  id: `T${id}`,
  path: 'a.ts',
  line: 3,
  startLine: null,
  originalLine: 3,
  originalStartLine: null,
  side: 'RIGHT',
  isOutdated: false,
  isResolved: false,
  comments: [{ id, author: 'alice', body: `comment ${id}`, diffHunk: '@@ -1 +1 @@', reviewId }],
  ...over,
});

const request = (over: Partial<JobRequest>): JobRequest => ({
  kind: 'review',
  installationId: 1,
  repo: { id: 1, owner: 'o', name: 'r', cloneUrl: 'https://x/o/r.git', defaultBranch: 'main' },
  number: 12,
  target: 'pull_request',
  title: 'PR',
  body: 'PR body',
  sender: 'alice',
  ...over,
});

const target = { branch: 'greenfix/issue-7', baseRef: 'refs/pull/12/head', fetchRefs: [], prBase: 'main', protectedBranches: ['main'], fixesIssue: 7, title: 'Fix #7: x' };

describe('which threads a job answers', () => {
  const threads = [thread(30, {}, 2), thread(20, { isResolved: true }, 1), thread(10, {}, 1)];
  it('a review: the threads with a comment of that review, by first comment id', () => {
    expect(addressedThreads(request({ review: { reviewId: 1, body: '' } }), threads).map((t) => t.id)).toEqual(['T10', 'T20']);
  });
  it('a review comment: its thread only; a PR retry: every unresolved thread; an issue job: none', () => {
    expect(addressedThreads(request({ review: { commentId: 30, body: '' } }), threads).map((t) => t.id)).toEqual(['T30']);
    expect(addressedThreads(request({ kind: 'retry' }), threads).map((t) => t.id)).toEqual(['T10', 'T30']);
    expect(addressedThreads(request({ kind: 'issue', target: 'issue' }), threads)).toEqual([]);
  });
  it('keeps lines only where they refer to the PR head (not outdated, new side)', () => {
    expect(toAddressed(thread(1, { startLine: 2 }))).toEqual({ commentId: 1, threadId: 'T1', path: 'a.ts', startLine: 2, line: 3 });
    expect(toAddressed(thread(1, { isOutdated: true, line: null }))).toMatchObject({ line: null, startLine: null });
    expect(toAddressed(thread(1, { side: 'LEFT' }))).toMatchObject({ line: null });
  });
});

describe('the task of a review job', () => {
  it('numbers threads with path, lines, hunk and every comment; the review body, the diff and the note format', () => {
    const t = thread(10, { startLine: 2, comments: [{ id: 10, author: 'alice', body: 'why?', diffHunk: '@@ -1,2 +1,3 @@\n+x', reviewId: 1 }, { id: 11, author: 'bob', body: 'agreed', diffHunk: '', reviewId: 2 }] });
    const text = jobTask(request({ review: { reviewId: 1, body: 'Two things' } }), target, [], {
      issueConversation: [{ author: 'carol', bot: false, body: 'It fails on Windows' }],
      prConversation: [],
      threads: [t, thread(20, { isOutdated: true, line: null, originalLine: 9 })],
      diff: { base: 'main', text: 'diff --git a/a.ts b/a.ts' },
    });
    expect(text.split('\n')[0]).toBe('Fix #7: x');
    expect(text).toContain('The review by @alice:\nTwo things');
    expect(text).toContain('### Thread 1: a.ts, lines 2-3 (new side)\n```diff\n@@ -1,2 +1,3 @@\n+x\n```\n@alice: why?\n@bob: agreed');
    expect(text).toContain('### Thread 2: a.ts, line 9 (new side) (outdated');
    expect(text).toContain('Thread <n>: <what you changed');
    expect(text).toContain("## Issue #7's conversation (newest last)\n@carol: It fails on Windows");
    expect(text).toContain("## The pull request's diff against main\n```diff\ndiff --git a/a.ts b/a.ts\n```");
  });

  it('caps a long comment, the conversation (newest kept) and the diff; a hunk cannot close its fence', () => {
    const long = 'x'.repeat(TASK_CAPS.comment + 10);
    const many = Array.from({ length: 10 }, (_, i) => ({ author: `u${i}`, bot: false, body: `${i} ${'y'.repeat(3000)}` }));
    const text = jobTask(request({ kind: 'retry' }), target, [], {
      issueConversation: [],
      prConversation: many,
      threads: [thread(1, { comments: [{ id: 1, author: 'a', body: long, diffHunk: '```\nbreak out', reviewId: 1 }] })],
      diff: { base: 'main', text: 'd'.repeat(TASK_CAPS.diff + 5) },
    });
    expect(text).toContain(`[greenfix: the comment was cut at ${TASK_CAPS.comment} characters of ${long.length}]`);
    expect(text).toContain('````diff\n```\nbreak out\n````');
    expect(text).toContain('(older comments left out)');
    expect(text).toContain('@u9: 9');
    expect(text).not.toContain('@u0: 0');
    expect(text).toContain('(The diff was cut; read the files for the rest.)');
  });

  it('lineRange names an outdated thread by its original lines, a file comment as the whole file', () => {
    expect(lineRange(thread(1, { line: null, originalLine: 4, originalStartLine: 2, isOutdated: true }))).toBe('lines 2-4 (new side)');
    expect(lineRange(thread(1, { line: null, originalLine: null }))).toBe('the whole file');
  });
});

describe("the model's notes and the replies", () => {
  it('reads `Thread <n>:` lines (first one wins, empty ones are absent)', () => {
    const notes = threadNotes('Fixed.\nThread 1: renamed it\n- **Thread 2**: kept it\nthread 3:   \nThread 1: again');
    expect([...notes]).toEqual([[1, 'renamed it'], [2, 'kept it']]);
  });

  it('a reply names the commit and the tree; without a note it says so; mentions and closing keywords are neutralised', () => {
    const base = { commit: 'c'.repeat(40), tree: 't'.repeat(40), command: 'npm test' };
    const reply = renderThreadReply({ ...base, note: 'Fixes #3 for @alice', changed: true });
    expect(reply).toContain(`Changed in ${'c'.repeat(12)}: tests passed on tree \`${'t'.repeat(40)}\` (\`npm test\`).`);
    expect(reply).not.toContain('@alice');
    expect(reply).not.toMatch(/Fixes #3/);
    const silent = renderThreadReply({ ...base, note: null, changed: false });
    expect(silent).toContain('Not changed (the model left no note for this thread).');
    expect(silent).toContain('These lines are unchanged in');
  });
});

describe('which lines a commit changed', () => {
  const ranges = oldRanges('@@ -3 +3 @@\n-a\n+b\n@@ -10,0 +11,2 @@\n+c\n+d\n@@ -20,2 +21,0 @@');
  it('parses the old side of -U0 hunks', () => {
    expect(ranges).toEqual([{ start: 3, count: 1 }, { start: 10, count: 0 }, { start: 20, count: 2 }]);
  });
  it('a rewritten or removed line in the range, or an insertion inside or right after it, touches it', () => {
    expect(touches(ranges, 3, 3)).toBe(true);
    expect(touches(ranges, 4, 9)).toBe(false);
    expect(touches(ranges, 10, 10)).toBe(true);
    expect(touches(ranges, 11, 12)).toBe(true);
    expect(touches(ranges, 21, 25)).toBe(true);
    expect(touches(ranges, 22, 25)).toBe(false);
  });
});
