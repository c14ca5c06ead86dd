import type { RepoConfig } from '../config/repo-config.js';
import { costOf, costText } from '../model/cost.js';
import type { ModelPrice } from '../model/prices.js';
import type { JobQueue } from '../queue/types.js';
import type { RepoRef } from '../triggers/types.js';
import { errorText } from '../util/error-text.js';
import { CHECK_NAME, renderCheckRunOutput } from '../github/render-check-run.js';
import { renderPullRequestBody } from '../github/render-pull-request.js';
import type { Evidence } from '../github/report.js';
import type { GitHost } from '../github/types.js';
import { commitVerifiedTree } from '../workspace/commit-tree.js';
import type { PushBranch } from '../workspace/push-branch.js';
import type { JobTarget } from './target.js';
import { jobRunLogMarkdown, type JobRunLogSource } from './run-log.js';
import { forbiddenPaths, PathPolicyError } from './path-policy.js';
import { commitMessage, neutraliseTitle, type Publisher } from '../fix/publisher.js';

export interface GitHubPublisherDeps {
  host: GitHost;
  /** The mirror the job's worktree belongs to: the verified tree's objects are there. */
  gitDir: string;
  repo: RepoRef;
  target: JobTarget;
  config: RepoConfig;
  jobId: string;
  push: PushBranch;
  /** The PRs a job opened are recorded as soon as they exist (found again on a resume), idempotently: the PR limits read them. */
  queue: Pick<JobQueue, 'recordPullRequest'>;
  /** The model and its price, for the cost the PR body and check run state; absent: they say nothing of it. */
  cost?: { model: string; price: ModelPrice | null };
  /** The run log for the check run's text (the verified tree's diff stat); absent or unreadable: the test output only. */
  runLog?: { source: JobRunLogSource; warn: (message: string) => void };
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
        cloneUrl: deps.repo.cloneUrl,
        token: await host.gitToken(),
        branch: target.branch,
        commit,
        allowedPrefix: deps.config.branch_prefix,
        protectedBranches: target.protectedBranches,
      });
      const evidence: Evidence = { ...input.verified, commit, branch: target.branch, ...(input.environment ? { environment: input.environment } : {}) };
      const cost = input.tokens && deps.cost ? { cost: costText(costOf(input.tokens, deps.cost.model, deps.cost.price)) } : {};
      const pr = await host.upsertPullRequest({
        head: target.branch,
        base: target.prBase,
        title: neutraliseTitle(target.title),
        body: renderPullRequestBody({ issueNumber: target.fixesIssue, summary: input.summary, evidence, jobId: deps.jobId, ...cost }),
        draft: deps.config.draft,
      });
      const { repo } = deps;
      await deps.queue.recordPullRequest({ repoKey: String(repo.id), repo: `${repo.owner}/${repo.name}`, number: pr.number, jobId: deps.jobId });
      const runLog = await bestEffortRunLog(deps.runLog, input.verified.tree);
      const check = await host.upsertCheckRun({
        name: CHECK_NAME,
        headSha: commit,
        externalId: deps.jobId,
        status: 'completed',
        conclusion: 'success',
        output: renderCheckRunOutput(evidence, runLog, cost.cost),
        detailsUrl: pr.url,
      });
      return { branch: target.branch, commit, tree: input.verified.tree, pullRequest: { number: pr.number, url: pr.url }, checkRunUrl: check.url };
    },
  };
}

/** The check run falls back to the test output when the log cannot be read: publishing never fails on it. */
async function bestEffortRunLog(runLog: GitHubPublisherDeps['runLog'], tree: string): Promise<string | undefined> {
  if (!runLog) return undefined;
  try {
    return await jobRunLogMarkdown(runLog.source, tree);
  } catch (error) {
    runLog.warn(`run log unreadable: the check run shows the test output only (${errorText(error)})`);
    return undefined;
  }
}
