import { call } from './errors.js';
import type { HostDeps } from './host-deps.js';
import { NO_RETRY } from './no-retry.js';
import type { Reaction } from './types.js';

/**
 * Adds a reaction. GitHub answers an existing reaction with 200, so a repeat is harmless, but a
 * failed one is not retried here: the caller logs it and goes on (an acknowledgement, not an effect).
 */
export async function react(deps: HostDeps, issueNumber: number, commentId: number | null, content: Reaction): Promise<void> {
  const { owner, repo } = deps;
  if (commentId === null) {
    await call('react to issue', () =>
      deps.octokit.rest.reactions.createForIssue({ owner, repo, issue_number: issueNumber, content, ...NO_RETRY }),
    );
  } else {
    await call('react to comment', () =>
      deps.octokit.rest.reactions.createForIssueComment({ owner, repo, comment_id: commentId, content, ...NO_RETRY }),
    );
  }
}
