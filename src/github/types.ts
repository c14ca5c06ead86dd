/**
 * Everything greenfix does on GitHub goes through `GitHost`, one per installation and repository:
 * the real one wraps an installation octokit, tests use it through nock. Every create is
 * idempotent (find first, create once, update after), because a POST retried after a 5xx or a
 * crash must not make a second comment, PR or check run (DESIGN §4.5).
 */

export type Permission = 'admin' | 'maintain' | 'write' | 'triage' | 'read' | 'none';

export interface PullRequestInfo {
  number: number;
  url: string;
  state: 'open' | 'closed';
  draft: boolean;
  title: string;
  body: string;
  headRef: string;
  headSha: string;
  /** `owner/name` of the head repository; differs from the base for a fork (null: deleted fork). */
  headRepoFullName: string | null;
  baseRef: string;
  /** Login of the PR's author. */
  author: string;
}

export interface PullRequestDraft {
  head: string;
  base: string;
  title: string;
  body: string;
  draft: boolean;
}

export interface CheckRunOutput {
  title: string;
  summary: string;
  text?: string;
}

export interface CheckRunDraft {
  /** `greenfix/verify`. */
  name: string;
  headSha: string;
  /** The job id: finds the check run again after a crash or a retried POST. */
  externalId: string;
  status: 'queued' | 'in_progress' | 'completed';
  conclusion?: 'success' | 'failure' | 'neutral' | 'cancelled' | 'action_required';
  output: CheckRunOutput;
  detailsUrl?: string;
}

/** A failed check on a commit, with what it printed, for the CI-fix task. */
export interface FailedCheck {
  name: string;
  checkRunId: number;
  /** The check run's output title/summary/text and annotations, cut to size. */
  output: string;
  /** For GitHub Actions: the job's log, cut to the failing part. */
  log: string | null;
}

export type Reaction = 'eyes' | '+1' | 'confused' | 'rocket';

/** A closed issue: who closed it and who opened it (null when GitHub does not say). */
export interface IssueClosure {
  closedBy: string | null;
  author: string | null;
}

/** One comment of a review thread, oldest first in its thread. */
export interface ReviewThreadComment {
  /** The REST id (`databaseId`): replies and reactions use it. */
  id: number;
  author: string | null;
  body: string;
  /** The diff hunk GitHub shows above the comment. */
  diffHunk: string;
  /** The review it belongs to (REST id), or null. */
  reviewId: number | null;
}

/** A review thread as GitHub's GraphQL `reviewThreads` has it: anchored lines, state, comments. */
export interface ReviewThread {
  /** The GraphQL node id (`resolveReviewThread` takes it). */
  id: string;
  path: string;
  /** Lines on `side` in the PR's head; null when the thread is outdated (then `originalLine` is what it was on). */
  line: number | null;
  startLine: number | null;
  originalLine: number | null;
  originalStartLine: number | null;
  side: 'LEFT' | 'RIGHT';
  isOutdated: boolean;
  isResolved: boolean;
  comments: ReviewThreadComment[];
}

/** A comment in an issue's or PR's conversation. */
export interface ConversationComment {
  author: string;
  bot: boolean;
  body: string;
}

/** The review comment a reply answers (see GitHost.replyOnce). */
export interface ReplyTarget {
  commentId: number;
  path: string;
  commitId: string;
}

export interface GitHost {
  readonly owner: string;
  readonly repo: string;
  /** Role of a user on the repository (collaborator permission API). */
  permission(username: string): Promise<Permission>;
  /** Adds a reaction to an issue/PR (`commentId` null) or to a comment. */
  react(issueNumber: number, commentId: number | null, reaction: Reaction): Promise<void>;
  /** Posts a plain comment (refusals, config errors). */
  comment(issueNumber: number, body: string): Promise<number>;
  /**
   * The one comment of an issue/PR that contains `marker` (an HTML comment), created if absent,
   * otherwise edited in place. Returns its id.
   */
  upsertComment(issueNumber: number, marker: string, body: string): Promise<number>;
  /** Edits the app's comment carrying `marker`; false when there is none (nothing is created). */
  editMarkedComment(issueNumber: number, marker: string, body: string): Promise<boolean>;
  /** Edits a comment by id (cheaper than `upsertComment` once the id is known); false when it is gone. */
  updateComment(commentId: number, body: string): Promise<boolean>;
  getPullRequest(number: number): Promise<PullRequestInfo>;
  /** Open PRs from this repository's branches starting with `branchPrefix` (greenfix's), every page. */
  openPullRequestsFrom(branchPrefix: string): Promise<PullRequestInfo[]>;
  /** Creates the PR, or (already exists, 422) finds the open one for `head` and updates it. */
  upsertPullRequest(draft: PullRequestDraft): Promise<{ number: number; url: string; created: boolean }>;
  /** Creates the check run for (`headSha`, `externalId`), or updates the one that exists. */
  upsertCheckRun(draft: CheckRunDraft): Promise<{ id: number; url: string }>;
  /** Failed checks on a commit (conclusion failure or timed_out), with their output and logs. */
  failedChecks(headSha: string, names?: string[]): Promise<FailedCheck[]>;
  /** Names of checks failing on a ref (the base branch: a failure there is not the PR's fault). */
  failingCheckNames(ref: string): Promise<string[]>;
  /** Who closed the issue and who opened it; null while it is open. */
  issueClosure(issueNumber: number): Promise<IssueClosure | null>;
  /** The conversation of an issue or PR (its comments, oldest first, every page). */
  conversation(issueNumber: number): Promise<ConversationComment[]>;
  /** Every review thread of a pull request, with its comments (GraphQL `reviewThreads`). */
  reviewThreads(pullNumber: number): Promise<ReviewThread[]>;
  /**
   * The one reply in a review thread that contains `marker`, created if absent (found again after
   * a failed create, as comments are). `to.commentId` is the thread's first comment; its `path` and
   * the PR's `commitId` go along because the endpoint's schema requires them (GitHub ignores them
   * on a reply). Returns its id.
   */
  replyOnce(pullNumber: number, to: ReplyTarget, marker: string, body: string): Promise<number>;
  /** Marks a review thread resolved (GraphQL `resolveReviewThread`); resolving twice is harmless. */
  resolveReviewThread(threadId: string): Promise<void>;
  /** A short-lived token for git over HTTPS; handed to the git process only. */
  gitToken(): Promise<string>;
}
