import { examplePayload } from '../triggers/payloads.js';
import { INSTALLATION, type Harness } from './harness.js';

/**
 * `pull_request.closed` for PR `number` of the harness's repository (head `head`), merged by
 * octocat unless `merged` is false: @octokit/webhooks-examples' payload with our repository.
 */
export function pullRequestClosed(h: Harness, number: number, head: string, merged = true, mergedAt = '2026-12-01T10:00:00Z'): Record<string, unknown> {
  return examplePayload('pull_request', 'closed', {
    installation: { id: INSTALLATION },
    repository: h.repository,
    sender: { login: 'octocat', type: 'User', id: 1 },
    number,
    pull_request: {
      number,
      state: 'closed',
      merged,
      merged_at: merged ? mergedAt : null,
      head: { ref: head, repo: h.repository },
      base: { ref: 'main', repo: h.repository },
    },
  });
}
