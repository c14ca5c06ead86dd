import { contentKeyFor } from '../../src/triggers/content-key.js';
import { dedupeKeyFor } from '../../src/triggers/dedupe.js';
import type { JobRequest } from '../../src/triggers/types.js';
import { examplePayload } from './payloads.js';

describe('contentKeyFor: what a webhook is about, whatever delivery carried it', () => {
  it('a comment by repository, comment id and action (an edit is a new request)', () => {
    const created = examplePayload('issue_comment', 'created', { comment: { body: '/agent retry' } });
    const key = contentKeyFor('issue_comment', created);
    expect(key).toMatch(/^issue_comment:\d+:\d+:created$/);
    expect(contentKeyFor('issue_comment', structuredClone(created))).toBe(key);
    expect(contentKeyFor('issue_comment', { ...created, action: 'edited' })).not.toBe(key);
    expect(contentKeyFor('issue_comment', examplePayload('issue_comment', 'created', { comment: { id: 1 } }))).not.toBe(key);
  });

  it('a review by its id; a review comment by its id and action', () => {
    const review = examplePayload('pull_request_review', 'submitted');
    expect(contentKeyFor('pull_request_review', review)).toMatch(/^pull_request_review:\d+:\d+$/);
    expect(contentKeyFor('pull_request_review', examplePayload('pull_request_review', 'submitted', { review: { id: 77 } }))).not.toBe(contentKeyFor('pull_request_review', review));
    expect(contentKeyFor('pull_request_review_comment', examplePayload('pull_request_review_comment', 'created'))).toMatch(/^pull_request_review_comment:\d+:\d+:created$/);
  });

  it("a label event by issue, label and the issue's time of change: labelling again later is new", () => {
    const labeled = examplePayload('issues', 'labeled', { label: { name: 'agent-fix' }, issue: { updated_at: '2026-12-01T10:00:00Z' } });
    const key = contentKeyFor('issues', labeled);
    expect(key).toMatch(/^issues:\d+:\d+:labeled:agent-fix:2026-12-01T10:00:00Z$/);
    expect(contentKeyFor('issues', examplePayload('issues', 'labeled', { label: { name: 'agent-fix' }, issue: { updated_at: '2026-12-01T11:00:00Z' } }))).not.toBe(key);
  });

  it('nothing for other events or malformed payloads', () => {
    expect(contentKeyFor('push', examplePayload('push', ''))).toBeUndefined();
    expect(contentKeyFor('issue_comment', { action: 'created' })).toBeUndefined();
    expect(contentKeyFor('issues', null)).toBeUndefined();
  });

  it('is the dedupe key of a non-CI job; a CI fix keeps its own', () => {
    const repo = { id: 5, owner: 'o', name: 'n', cloneUrl: 'https://example.test/o/n.git', defaultBranch: 'main' };
    const retry: JobRequest = { kind: 'retry', installationId: 1, repo, number: 3, target: 'issue', title: 't', body: '', sender: 's' };
    expect(dedupeKeyFor(retry, 'issue_comment:5:9:created')).toBe('issue_comment:5:9:created');
    const ci = { headSha: 'abc', headRef: 'b', checks: ['test'], checkRunIds: [1] };
    expect(dedupeKeyFor({ ...retry, kind: 'ci_fix', ci }, 'x')).toBe('ci:5:3:abc:test');
  });
});
