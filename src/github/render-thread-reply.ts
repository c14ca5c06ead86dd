import { neutralise } from '../util/neutralise.js';
import { truncate } from '../util/truncate.js';

/** The model's note in a reply, in characters (one or two sentences are asked for). */
export const THREAD_NOTE_CHARS = 600;

export interface ThreadReply {
  /** The model's note for the thread, untrusted; null when it left none. */
  note: string | null;
  /** Whether the thread's lines changed in the commit. */
  changed: boolean;
  commit: string;
  tree: string;
  command: string;
}

/** The marker of a job's reply in a thread: finds it again after a crash or a retried POST. */
export function threadReplyMarker(jobId: string): string {
  return `<!-- greenfix:reply:${jobId} -->`;
}

/**
 * A reply in a review thread: what changed (or why nothing did) in the model's words, the commit,
 * and the tree the tests passed on. The note is neutralised (no mentions, closing keywords, HTML).
 */
export function renderThreadReply(reply: ThreadReply): string {
  const note = reply.note ? truncate(neutralise(reply.note.replace(/\s+/g, ' ').trim(), { for: 'markdown' }), THREAD_NOTE_CHARS) : '';
  const what = note !== '' ? note : reply.changed ? 'Changed in this commit (the model left no note for this thread).' : 'Not changed (the model left no note for this thread).';
  const lead = reply.changed ? `Changed in ${reply.commit.slice(0, 12)}` : `These lines are unchanged in ${reply.commit.slice(0, 12)}`;
  const command = neutralise(reply.command.replace(/\s+/g, ' '), { for: 'markdown' }).replace(/`/g, "'");
  return [what, '', `${lead}: tests passed on tree \`${reply.tree}\` (\`${command}\`).`, '', '<sub>greenfix · review</sub>'].join('\n');
}
