import type { RepoConfig } from '../config/repo-config.js';
import type { PullRequestInfo } from '../github/types.js';
import type { JobRequest } from '../triggers/types.js';
import { truncate } from '../util/truncate.js';

/** Where a job's fix goes: decided once per job (and saved), from the request, config and PR. */
export interface JobTarget {
  /** The branch greenfix pushes: always under the configured prefix. */
  branch: string;
  /** The ref, as fetched into the mirror, whose commit is the fix's parent. */
  baseRef: string;
  /** Refs to fetch into the mirror. */
  fetchRefs: string[];
  /** The branch the pull request targets. */
  prBase: string;
  /** Branches greenfix must never push to. */
  protectedBranches: string[];
  /** "Fixes #n" in the PR body; null when the job answers a PR with no issue. */
  fixesIssue: number | null;
  /** The commit subject and PR title. */
  title: string;
  /**
   * The ref whose files command detection reads when the repository config leaves `verify` or
   * `setup` unset: on greenfix's own branches (a tree the model wrote) the default branch, so a
   * model never chooses the next job's test command. Absent: the base.
   */
  commandsFrom?: string;
  /** The review threads the job answers, as they were when its task was written (review and PR retry jobs). */
  threads?: AddressedThread[];
  /** The environment image the job's first attempt pinned: a resumed job runs on that digest, whatever its tag says now. */
  image?: { reference: string; digest: string };
}

/** A review thread a job answers: where to reply, what to resolve, which lines of the base it is on. */
export interface AddressedThread {
  /** The thread's first comment (replies go under it). */
  commentId: number;
  /** GraphQL node id of the thread. */
  threadId: string;
  path: string;
  /** Lines in the job's base commit (the PR head); null when outdated or on the old side. */
  startLine: number | null;
  line: number | null;
}

export type TargetPlan =
  | { type: 'target'; target: JobTarget }
  | { type: 'refuse'; code: 'fork' | 'humans_opt_in' | 'closed'; message: string }
  | { type: 'skip'; reason: string };

/**
 * Pure: issues get `<prefix>issue-<n>` against the default branch (a retry reuses it); greenfix's
 * own PRs get a new commit on their branch; humans' PRs get a PR of greenfix's against their
 * branch, never a push to it. Forks are refused: their branches are not ours to push to.
 */
export function planTarget(request: JobRequest, config: RepoConfig, pr: PullRequestInfo | null): TargetPlan {
  const prefix = config.branch_prefix;
  const main = request.repo.defaultBranch;
  if (!pr) {
    return {
      type: 'target',
      target: {
        branch: `${prefix}issue-${request.number}`,
        baseRef: `refs/heads/${main}`,
        fetchRefs: [`refs/heads/${main}`],
        prBase: main,
        protectedBranches: [main],
        fixesIssue: request.number,
        title: `Fix #${request.number}: ${oneLine(request.title)}`,
      },
    };
  }
  if (pr.state !== 'open') return { type: 'refuse', code: 'closed', message: `pull request #${pr.number} is closed` };
  if (pr.headRepoFullName !== `${request.repo.owner}/${request.repo.name}`) {
    return { type: 'refuse', code: 'fork', message: `#${pr.number} comes from a fork; greenfix only pushes to branches of this repository` };
  }
  if (request.kind === 'ci_fix' && request.ci && request.ci.headSha !== pr.headSha) {
    return { type: 'skip', reason: `#${pr.number} has moved on from ${request.ci.headSha.slice(0, 7)}; the failure is outdated` };
  }
  const pull = `refs/pull/${pr.number}/head`;
  const own = pr.headRef.startsWith(prefix);
  if (!own && request.kind === 'ci_fix' && !config.autofix.humans) {
    return { type: 'refuse', code: 'humans_opt_in', message: 'fixing CI on pull requests by people is off (`autofix.humans` in .github/greenfix.yml)' };
  }
  if (own && request.kind === 'ci_fix' && !config.autofix.own) {
    return { type: 'skip', reason: 'fixing CI on greenfix pull requests is off (`autofix.own`)' };
  }
  const issue = own ? /(?:^|\/)issue-(\d+)$/.exec(pr.headRef) : null;
  return {
    type: 'target',
    target: {
      branch: own ? pr.headRef : `${prefix}pr-${pr.number}`,
      baseRef: pull,
      fetchRefs: own ? [pull, `refs/heads/${main}`] : [pull],
      ...(own ? { commandsFrom: `refs/heads/${main}` } : {}),
      prBase: own ? pr.baseRef : pr.headRef,
      protectedBranches: [...new Set([main, pr.baseRef])],
      fixesIssue: issue?.[1] ? Number(issue[1]) : null,
      title: own ? pr.title : `Fix ${request.kind === 'ci_fix' ? 'CI on ' : ''}#${pr.number}: ${oneLine(pr.title)}`,
    },
  };
}

function oneLine(text: string): string {
  return truncate(text.replace(/\s+/g, ' ').trim(), 100);
}
