import type { ProbotOctokit } from 'probot';
import { upsertCheckRun } from './check-runs.js';
import { comment, editMarkedComment, updateComment, upsertComment } from './comments.js';
import { conversation } from './conversation.js';
import type { Sleep } from './create-once.js';
import { failedChecks, failingCheckNames } from './failed-checks.js';
import { gitToken } from './git-token.js';
import type { HostDeps } from './host-deps.js';
import { issueClosure } from './issues.js';
import { permission } from './permissions.js';
import { getPullRequest, openPullRequestsFrom, upsertPullRequest } from './pull-requests.js';
import { react } from './reactions.js';
import { replyOnce } from './review-replies.js';
import { resolveReviewThread, reviewThreads } from './review-threads.js';
import type { GitHost } from './types.js';

export interface GitHostOptions {
  /** Creates tried after 5xx/429/network failures, each after a re-read (default 3). */
  createAttempts?: number;
  /** Injected so tests record waits instead of waiting (default: a real timer). */
  sleep?: Sleep;
  /**
   * The token for git (a renewing, repository- and contents-scoped one: `renewingToken` with
   * `gitTokenScope`). Default: the client's own installation token.
   */
  gitToken?: () => Promise<string>;
}

const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The GitHost of one installation and repository, over a Probot octokit (an installation client).
 * Errors come out as GitHubError; creates never duplicate (see create-once.ts).
 */
export function createGitHost(
  octokit: ProbotOctokit,
  repo: { owner: string; repo: string },
  options: GitHostOptions = {},
): GitHost {
  const deps: HostDeps = {
    octokit,
    owner: repo.owner,
    repo: repo.repo,
    createAttempts: options.createAttempts ?? 3,
    sleep: options.sleep ?? realSleep,
  };
  return {
    owner: repo.owner,
    repo: repo.repo,
    permission: (username) => permission(deps, username),
    react: (issueNumber, commentId, reaction) => react(deps, issueNumber, commentId, reaction),
    comment: (issueNumber, body) => comment(deps, issueNumber, body),
    upsertComment: (issueNumber, marker, body) => upsertComment(deps, issueNumber, marker, body),
    updateComment: (commentId, body) => updateComment(deps, commentId, body),
    editMarkedComment: (issueNumber, marker, body) => editMarkedComment(deps, issueNumber, marker, body),
    getPullRequest: (number) => getPullRequest(deps, number),
    openPullRequestsFrom: (branchPrefix) => openPullRequestsFrom(deps, branchPrefix),
    upsertPullRequest: (draft) => upsertPullRequest(deps, draft),
    upsertCheckRun: (draft) => upsertCheckRun(deps, draft),
    failedChecks: (headSha, names) => failedChecks(deps, headSha, names),
    failingCheckNames: (ref) => failingCheckNames(deps, ref),
    issueClosure: (issueNumber) => issueClosure(deps, issueNumber),
    conversation: (issueNumber) => conversation(deps, issueNumber),
    reviewThreads: (pullNumber) => reviewThreads(deps, pullNumber),
    replyOnce: (pullNumber, to, marker, body) => replyOnce(deps, pullNumber, to, marker, body),
    resolveReviewThread: (threadId) => resolveReviewThread(deps, threadId),
    gitToken: options.gitToken ?? (() => gitToken(deps)),
  };
}
