import { call } from './errors.js';
import type { HostDeps } from './host-deps.js';
import type { ConversationComment } from './types.js';

/** An issue's (or PR's) comments, oldest first, all pages; bots are marked (callers drop them). */
export async function conversation(deps: HostDeps, issueNumber: number): Promise<ConversationComment[]> {
  const comments = await call('list comments', () =>
    deps.octokit.paginate(deps.octokit.rest.issues.listComments, { owner: deps.owner, repo: deps.repo, issue_number: issueNumber, per_page: 100 }),
  );
  return comments.map((c) => {
    const author = c.user?.login ?? 'ghost';
    return { author, bot: c.user?.type === 'Bot' || author.endsWith('[bot]'), body: c.body ?? '' };
  });
}
