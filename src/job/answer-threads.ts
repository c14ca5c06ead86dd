import { renderThreadReply, threadReplyMarker } from '../github/render-thread-reply.js';
import type { GitHost, ReviewThread } from '../github/types.js';
import { changedRanges, touches } from './line-changes.js';
import type { AddressedThread } from './target.js';
import { threadNotes } from './task-context.js';

export interface AnswerThreadsInput {
  host: GitHost;
  pullNumber: number;
  jobId: string;
  gitDir: string;
  threads: AddressedThread[];
  /** The commit's parent (the PR head the threads' lines refer to) and the pushed, verified commit. */
  baseCommit: string;
  commit: string;
  tree: string;
  command: string;
  /** The model's finish summary, with its `Thread <n>: …` lines. */
  summary: string;
  /** `review.resolve_threads`. */
  resolve: boolean;
}

/**
 * After the verified push: one reply per thread (idempotent, by the job's marker) saying what
 * changed or why not, with the commit and the tree; then, with `resolve`, the threads whose
 * lines the commit changed are resolved. Outdated threads and old-side comments are never
 * resolved: greenfix cannot tell which lines they mean now.
 */
export async function answerThreads(input: AnswerThreadsInput): Promise<{ replied: number; resolved: number }> {
  const notes = threadNotes(input.summary);
  const marker = threadReplyMarker(input.jobId);
  let resolved = 0;
  for (const [i, thread] of input.threads.entries()) {
    const changed = await linesChanged(input, thread);
    const body = renderThreadReply({ note: notes.get(i + 1) ?? null, changed, commit: input.commit, tree: input.tree, command: input.command });
    await input.host.replyOnce(input.pullNumber, { commentId: thread.commentId, path: thread.path, commitId: input.commit }, marker, body);
    if (input.resolve && changed) {
      await input.host.resolveReviewThread(thread.threadId);
      resolved += 1;
    }
  }
  return { replied: input.threads.length, resolved };
}

async function linesChanged(input: AnswerThreadsInput, thread: AddressedThread): Promise<boolean> {
  if (thread.line === null) return false;
  const ranges = await changedRanges(input.gitDir, input.baseCommit, input.commit, thread.path);
  return touches(ranges, thread.startLine ?? thread.line, thread.line);
}

/** What a job keeps of a thread it answers: lines only where they refer to its base (the PR head). */
export function toAddressed(thread: ReviewThread): AddressedThread {
  const onHead = !thread.isOutdated && thread.side === 'RIGHT';
  return {
    commentId: thread.comments[0]?.id ?? 0,
    threadId: thread.id,
    path: thread.path,
    startLine: onHead ? thread.startLine : null,
    line: onHead ? thread.line : null,
  };
}
