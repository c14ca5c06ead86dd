import type { ConversationComment, ReviewThread } from '../github/types.js';

/** What a job's task carries besides the issue: conversations, review threads, the PR's diff. */
export interface TaskContext {
  /** The issue's comments by people, oldest first. */
  issueConversation: ConversationComment[];
  /** The pull request's comments by people, oldest first (PR jobs). */
  prConversation: ConversationComment[];
  /** The review threads to answer, numbered from 1 in this order. */
  threads: ReviewThread[];
  /** The PR's diff against its base, and the base's name; null when not read. */
  diff: { base: string; text: string } | null;
}

export const EMPTY_TASK_CONTEXT: TaskContext = { issueConversation: [], prConversation: [], threads: [], diff: null };

/** Caps, in characters: a comment, a conversation (newest kept), a diff hunk, the PR diff; threads shown. */
export const TASK_CAPS = { comment: 4_000, conversation: 12_000, hunk: 3_000, diff: 20_000, threads: 30 } as const;

/** The line the model ends its `finish` summary with, per thread; parsed back by `threadNotes`. */
export const THREAD_NOTE_FORMAT = 'Thread <n>: <what you changed, or why you changed nothing>';

/** The context as sections of the task (empty parts are left out). Untrusted text: the agent sanitises the task. */
export function renderTaskContext(context: TaskContext, issueLabel: string): string[] {
  const parts: string[] = [];
  if (context.threads.length > 0) parts.push('', ...threadsSection(context.threads));
  if (context.issueConversation.length > 0) parts.push('', `## ${issueLabel}'s conversation (newest last)`, ...conversationLines(context.issueConversation));
  if (context.prConversation.length > 0) parts.push('', "## The pull request's conversation (newest last)", ...conversationLines(context.prConversation));
  if (context.diff) {
    parts.push('', `## The pull request's diff against ${context.diff.base}`, fence(cap(context.diff.text, TASK_CAPS.diff, 'the diff'), 'diff'));
    if (context.diff.text.length > TASK_CAPS.diff) parts.push('(The diff was cut; read the files for the rest.)');
  }
  return parts;
}

function threadsSection(threads: ReviewThread[]): string[] {
  const shown = threads.slice(0, TASK_CAPS.threads);
  const lines = [
    '## Review threads to address',
    'Each thread is a reviewer comment on lines of the pull request, with its replies. Address all of them in this one change.',
    `End your \`finish\` summary with one line per thread, exactly: \`${THREAD_NOTE_FORMAT}\` (one or two sentences).`,
  ];
  shown.forEach((thread, i) => {
    lines.push('', `### Thread ${i + 1}: ${thread.path}, ${lineRange(thread)}${thread.isOutdated ? ' (outdated: the lines changed since the comment)' : ''}`);
    const hunk = thread.comments[0]?.diffHunk ?? '';
    if (hunk) lines.push(fence(cap(hunk, TASK_CAPS.hunk, 'the hunk'), 'diff'));
    for (const comment of thread.comments) lines.push(`@${comment.author ?? 'ghost'}: ${cap(comment.body.trim(), TASK_CAPS.comment, 'the comment')}`);
  });
  if (threads.length > shown.length) lines.push('', `(${threads.length - shown.length} more threads are not shown; answer these first.)`);
  return lines;
}

/** `lines 10-12 (new side)`; an outdated thread names the lines it was on. */
export function lineRange(thread: ReviewThread): string {
  const end = thread.line ?? thread.originalLine;
  const start = thread.line !== null ? thread.startLine : thread.originalStartLine;
  const side = thread.side === 'LEFT' ? 'old side' : 'new side';
  if (end === null) return 'the whole file';
  return start !== null && start !== end ? `lines ${start}-${end} (${side})` : `line ${end} (${side})`;
}

/** The newest comments that fit the cap, oldest first. */
function conversationLines(comments: ConversationComment[]): string[] {
  const out: string[] = [];
  let used = 0;
  for (const comment of [...comments].reverse()) {
    const line = `@${comment.author}: ${cap(comment.body.trim(), TASK_CAPS.comment, 'the comment')}`;
    if (used + line.length > TASK_CAPS.conversation) {
      out.push('(older comments left out)');
      break;
    }
    out.push(line);
    used += line.length;
  }
  return out.reverse();
}

function cap(text: string, max: number, what: string): string {
  return text.length <= max ? text : `${text.slice(0, max)}\n[greenfix: ${what} was cut at ${max} characters of ${text.length}]`;
}

/** A fence longer than any backtick run inside, so the text cannot close it. */
function fence(text: string, lang: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}${lang}\n${text}\n${ticks}`;
}

/**
 * The model's note per thread (1-based), from `Thread <n>: …` lines of its summary. A thread
 * without a note, or with an empty one, is absent: the reply then says the model left none.
 */
export function threadNotes(summary: string): Map<number, string> {
  const notes = new Map<number, string>();
  for (const line of summary.split('\n')) {
    const m = /^\s*[-*]?\s*\**thread\s+(\d+)\**\s*[:.)-]\s*(.*)$/i.exec(line);
    const note = m?.[2]?.trim();
    if (m && note && !notes.has(Number(m[1]))) notes.set(Number(m[1]), note);
  }
  return notes;
}
