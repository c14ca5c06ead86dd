import { noCrashPoints, type CrashPoints } from '../agent/crash-points.js';
import type { RepoConfig } from '../config/repo-config.js';
import { renderCheckRunOutput } from '../github/render-check-run.js';
import { renderPullRequestBody } from '../github/render-pull-request.js';
import type { Evidence } from '../github/report.js';
import type { GitHost } from '../github/types.js';
import { commitVerifiedTree } from '../workspace/commit-tree.js';
import { pushBranch } from '../workspace/push-branch.js';
import type { JobTarget } from './job-target.js';
import { forbiddenPaths, PathPolicyError } from './path-policy.js';
import { commitMessage, neutraliseTitle, type Publisher } from '../fix/publisher.js';
import { RETRY_HINT } from './job-reporter.js';

export interface GitHubPublisherDeps {
  host: GitHost;
  /** The mirror the job's worktree belongs to: the verified tree's objects are there. */
  gitDir: string;
  cloneUrl: string;
  target: JobTarget;
  config: RepoConfig;
  jobId: string;
  /** Test-only SIGKILLs either side of each effect (push, PR, check run); none by default. */
  crashPoints?: CrashPoints;
}

export const CHECK_NAME = 'greenfix/verify';

/**
 * The verified tree as a commit on greenfix's branch, a pull request and a check run. Every
 * step is idempotent (same commit for the same input, push is a no-op when the branch is there
 * already, PR and check run are found before they are created), so a resumed job repeats none.
 */
export function githubPublisher(deps: GitHubPublisherDeps): Publisher {
  return {
    async publish(input) {
      const { host, target } = deps;
      const crash = deps.crashPoints ?? noCrashPoints;
      const denied = await forbiddenPaths(deps.gitDir, input.baseCommit, input.verified.tree, deps.config.paths);
      if (denied.length > 0) throw new PathPolicyError(denied);
      const commit = await commitVerifiedTree({
        repo: deps.gitDir,
        tree: input.verified.tree,
        parent: input.baseCommit,
        message: commitMessage(input),
        date: input.date,
      });
      crash.reach('before_push');
      await pushBranch({
        gitDir: deps.gitDir,
        cloneUrl: deps.cloneUrl,
        token: await host.gitToken(),
        branch: target.branch,
        commit,
        allowedPrefix: deps.config.branch_prefix,
        protectedBranches: target.protectedBranches,
      });
      crash.reach('after_push');
      const evidence: Evidence = { ...input.verified, commit, branch: target.branch };
      crash.reach('before_pull_request');
      const pr = await host.upsertPullRequest({
        head: target.branch,
        base: target.prBase,
        title: neutraliseTitle(target.title),
        body: renderPullRequestBody({ issueNumber: target.fixesIssue, summary: input.summary, evidence, jobId: deps.jobId, retryHint: RETRY_HINT }),
        draft: deps.config.draft,
      });
      crash.reach('after_pull_request');
      crash.reach('before_check_run');
      await host.upsertCheckRun({
        name: CHECK_NAME,
        headSha: commit,
        externalId: deps.jobId,
        status: 'completed',
        conclusion: 'success',
        output: renderCheckRunOutput(evidence),
        detailsUrl: pr.url,
      });
      crash.reach('after_check_run');
      return { branch: target.branch, commit, tree: input.verified.tree, pullRequest: { number: pr.number, url: pr.url } };
    },
  };
}
