import { createOnce } from './create-once.js';
import { call, GitHubError } from './errors.js';
import type { HostDeps } from './host-deps.js';
import { NO_RETRY } from './no-retry.js';
import type { PullRequestDraft, PullRequestInfo } from './types.js';

/** The fields of GitHub's pull request object this reads (list and get answer the same shape). */
interface PullLike {
  number: number;
  html_url: string;
  state: string;
  draft?: boolean;
  title: string;
  body: string | null;
  head: { ref: string; sha: string; repo: { full_name: string } | null };
  base: { ref: string };
  user: { login: string } | null;
}

export function toPullRequestInfo(pr: PullLike): PullRequestInfo {
  return {
    number: pr.number,
    url: pr.html_url,
    state: pr.state === 'open' ? 'open' : 'closed',
    draft: pr.draft === true,
    title: pr.title,
    body: pr.body ?? '',
    headRef: pr.head.ref,
    headSha: pr.head.sha,
    headRepoFullName: pr.head.repo?.full_name ?? null,
    baseRef: pr.base.ref,
    author: pr.user?.login ?? '',
  };
}

export async function getPullRequest(deps: HostDeps, number: number): Promise<PullRequestInfo> {
  const { data } = await call('get pull request', () =>
    deps.octokit.rest.pulls.get({ owner: deps.owner, repo: deps.repo, pull_number: number }),
  );
  return toPullRequestInfo(data);
}

/**
 * The repository's open PRs whose head is a branch of this repository starting with `branchPrefix`
 * (greenfix's own: the PR rate limits count them), every page.
 */
export async function openPullRequestsFrom(deps: HostDeps, branchPrefix: string): Promise<PullRequestInfo[]> {
  const pulls = await call('list open pull requests', () =>
    deps.octokit.paginate(deps.octokit.rest.pulls.list, { owner: deps.owner, repo: deps.repo, state: 'open', per_page: 100 }),
  );
  const here = `${deps.owner}/${deps.repo}`.toLowerCase();
  return pulls.map(toPullRequestInfo).filter((pr) => pr.headRef.startsWith(branchPrefix) && pr.headRepoFullName?.toLowerCase() === here);
}

/** The open PR from `owner:head` into `base`, if any. */
async function findOpen(deps: HostDeps, head: string, base: string): Promise<PullRequestInfo | null> {
  const { data } = await call('list pull requests', () =>
    deps.octokit.rest.pulls.list({ owner: deps.owner, repo: deps.repo, state: 'open', head: `${deps.owner}:${head}`, base }),
  );
  const first = data[0];
  return first ? toPullRequestInfo(first) : null;
}

async function update(deps: HostDeps, found: PullRequestInfo, draft: PullRequestDraft): Promise<void> {
  if (found.title === draft.title && found.body === draft.body) return;
  // Draft state is left as it is: a maintainer may have marked the PR ready.
  await call('update pull request', () =>
    deps.octokit.rest.pulls.update({ owner: deps.owner, repo: deps.repo, pull_number: found.number, title: draft.title, body: draft.body }),
  );
}

/**
 * Updates the open PR of the branch, or creates it. The read comes first, so a job resumed after a
 * crash (or a retry on a branch that has its PR) sends no POST at all; a 422 ("already exists", a
 * PR opened in between) or a transient failure on create leads to another read before anything
 * else. `created` is true only when our POST was answered 201.
 */
export async function upsertPullRequest(
  deps: HostDeps,
  draft: PullRequestDraft,
): Promise<{ number: number; url: string; created: boolean }> {
  const find = () => findOpen(deps, draft.head, draft.base);
  const create = async () => {
    const { data } = await call('create pull request', () =>
      deps.octokit.rest.pulls.create({ owner: deps.owner, repo: deps.repo, ...draft, ...NO_RETRY }),
    );
    return toPullRequestInfo(data);
  };
  let found: PullRequestInfo;
  try {
    const result = await createOnce({ find, create, attempts: deps.createAttempts, sleep: deps.sleep });
    if ('created' in result) return { number: result.created.number, url: result.created.url, created: true };
    found = result.found;
  } catch (err) {
    if (!(err instanceof GitHubError) || err.kind !== 'validation') throw err;
    const existing = await find();
    if (existing === null) throw err; // a different 422 (no commits, bad head): the caller says why
    found = existing;
  }
  await update(deps, found, draft);
  return { number: found.number, url: found.url, created: false };
}
