import { call } from './errors.js';
import type { HostDeps } from './host-deps.js';
import type { IssueClosure } from './types.js';

/** Who closed an issue, and who opened it; null while it is open. */
export async function issueClosure(deps: HostDeps, issueNumber: number): Promise<IssueClosure | null> {
  const { data } = await call('get issue', () => deps.octokit.rest.issues.get({ owner: deps.owner, repo: deps.repo, issue_number: issueNumber }));
  if (data.state !== 'closed') return null;
  return { closedBy: data.closed_by?.login ?? null, author: data.user?.login ?? null };
}
