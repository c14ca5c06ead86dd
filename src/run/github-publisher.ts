import type { Tokens } from '../agent/types.js';
import type { RepoConfig } from '../config/repo-config.js';
import type { CostText } from '../util/cost-sentence.js';
import { CHECK_NAME, renderCheckRunOutput } from '../github/render-check-run.js';
import { renderPullRequestBody } from '../github/render-pull-request.js';
import type { Evidence } from '../github/report.js';
import type { GitHost } from '../github/types.js';
import { commitVerifiedTree } from '../workspace/commit-tree.js';
import type { PushBranch } from '../workspace/push-branch.js';
import type { JobTarget } from './job-target.js';
import { forbiddenPaths, PathPolicyError } from './path-policy.js';
import { commitMessage, neutraliseTitle, type Publisher } from '../fix/publisher.js';

export interface GitHubPublisherDeps {
  host: GitHost;
  /** The mirror the job's worktree belongs to: the verified tree's objects are there. */
  gitDir: string;
  cloneUrl: string;
  target: JobTarget;
  config: RepoConfig;
  jobId: string;
  push: PushBranch;
  /** Words the run's cost (model/cost.ts); absent: the PR body and check run say nothing of it. */
  describeCost?: (tokens: Tokens) => CostText;
  /** The run log's Markdown for the check run's text (the verified tree's diff stat); default: the test output only. */
  runLog?: (tree: string) => Promise<string | undefined>;
  /** Told where the check run is, for the status comment's link. */
  onCheckRun?: (url: string) => void;
  /** Told of the PR as soon as it exists (found again on a resume): the queue records it, idempotently. */
  onPullRequest?: (pr: { number: number; url: string }) => Promise<void>;
}

/**
 * The verified tree as a commit on greenfix's branch, a pull request and a check run. Every
 * step is idempotent (same commit for the same input, push is a no-op when the branch is there
 * already, PR and check run are found before they are created), so a resumed job repeats none.
 */
export function githubPublisher(deps: GitHubPublisherDeps): Publisher {
  return {
    async publish(input) {
      const { host, target } = deps;
      const denied = await forbiddenPaths(deps.gitDir, input.baseCommit, input.verified.tree, deps.config.paths);
      if (denied.length > 0) throw new PathPolicyError(denied);
      const commit = await commitVerifiedTree({
        repo: deps.gitDir,
        tree: input.verified.tree,
        parent: input.baseCommit,
        message: commitMessage(input),
        date: input.date,
      });
      await deps.push({
        gitDir: deps.gitDir,
        cloneUrl: deps.cloneUrl,
        token: await host.gitToken(),
        branch: target.branch,
        commit,
        allowedPrefix: deps.config.branch_prefix,
        protectedBranches: target.protectedBranches,
      });
      const evidence: Evidence = { ...input.verified, commit, branch: target.branch };
      const cost = input.tokens && deps.describeCost ? { cost: deps.describeCost(input.tokens) } : {};
      const pr = await host.upsertPullRequest({
        head: target.branch,
        base: target.prBase,
        title: neutraliseTitle(target.title),
        body: renderPullRequestBody({ issueNumber: target.fixesIssue, summary: input.summary, evidence, jobId: deps.jobId, ...cost }),
        draft: deps.config.draft,
      });
      await deps.onPullRequest?.(pr);
      const runLog = deps.runLog ? await deps.runLog(input.verified.tree) : undefined;
      const check = await host.upsertCheckRun({
        name: CHECK_NAME,
        headSha: commit,
        externalId: deps.jobId,
        status: 'completed',
        conclusion: 'success',
        output: renderCheckRunOutput(evidence, runLog, cost.cost),
        detailsUrl: pr.url,
      });
      deps.onCheckRun?.(check.url);
      return { branch: target.branch, commit, tree: input.verified.tree, pullRequest: { number: pr.number, url: pr.url } };
    },
  };
}
