import type { ConversationComment, GitHost } from '../github/types.js';
import type { JobRequest } from '../triggers/types.js';
import { git, GitError } from '../workspace/git.js';
import type { JobTarget } from './target.js';
import { addressedThreads, readsReviewThreads } from './review-scope.js';
import type { TaskContext } from './task-context.js';

/** The diff text read at most (the task caps it further); a bigger diff is cut by git's output cap. */
const DIFF_BYTES = 256 * 1024;

export interface GatherInput {
  host: GitHost;
  request: JobRequest;
  target: JobTarget;
  /** The PR's diff against its base (computed by the caller, who fetched the base), or null. */
  diff: TaskContext['diff'];
}

/**
 * Reads what the task needs beyond the request, once per job (the task is saved): the issue's
 * and the PR's conversations (people only: greenfix's status comments and other bots' noise stay
 * out), the review threads the job answers and the PR's diff. CI fixes keep their own task.
 */
export async function gatherTaskContext(input: GatherInput): Promise<TaskContext> {
  const { host, request, target } = input;
  if (request.kind === 'ci_fix') return { issueConversation: [], prConversation: [], threads: [], diff: null };
  const onPull = request.target === 'pull_request';
  const issueNumber = onPull ? target.fixesIssue : request.number;
  const issueConversation = issueNumber !== null ? people(await host.conversation(issueNumber)) : [];
  const prConversation = onPull ? people(await host.conversation(request.number)) : [];
  if (!readsReviewThreads(request)) return { issueConversation, prConversation, threads: [], diff: null };
  const threads = addressedThreads(request, await host.reviewThreads(request.number));
  return { issueConversation, prConversation, threads, diff: input.diff };
}

function people(comments: ConversationComment[]): ConversationComment[] {
  return comments.filter((c) => !c.bot && c.body.trim() !== '');
}

/** `git diff <merge base>..<head>` in the mirror: what the PR changes, as GitHub shows it. */
export async function pullRequestDiff(gitDir: string, baseCommit: string, head: string): Promise<string> {
  const mergeBase = (await git(['merge-base', baseCommit, head], { cwd: gitDir })).trim();
  return git(['diff', '--no-color', '--no-ext-diff', mergeBase, head], { cwd: gitDir, maxOutputBytes: DIFF_BYTES }).catch((error: unknown) => {
    if (error instanceof GitError && error.kind === 'output-overflow') return '(the diff is too large to show; read the files)';
    throw error;
  });
}
