import { examplePayload, withInstallation } from '../support/webhook-client.js';
import { INSTALLATION, type Harness } from './harness.js';

/** `issues.labeled` on issue #7 of the harness's repository, by octocat unless overridden. */
export function labeled(h: Harness, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const payload = examplePayload('issues', 'labeled');
  Object.assign(payload, {
    repository: h.repository,
    issue: { ...payload.issue, number: 7, state: 'open', title: 'add() gives the wrong answer', body: 'add 2 3 should be 5', pull_request: undefined },
    label: { ...payload.label, name: 'agent-fix' },
    sender: { login: 'octocat', type: 'User', id: 1 },
    ...overrides,
  });
  return withInstallation(payload, INSTALLATION);
}

/** `issue_comment.created` on issue #7 with `body`. */
export function commented(h: Harness, body: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const payload = examplePayload('issue_comment', 'created');
  Object.assign(payload, {
    repository: h.repository,
    issue: { ...payload.issue, number: 7, state: 'open', title: 'add() gives the wrong answer', body: 'add 2 3 should be 5', pull_request: undefined },
    comment: { ...payload.comment, id: 555, body, user: { login: 'octocat', type: 'User', id: 1 } },
    sender: { login: 'octocat', type: 'User', id: 1 },
    ...overrides,
  });
  return withInstallation(payload, INSTALLATION);
}
