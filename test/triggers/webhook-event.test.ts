import { webhookEvent } from '../../src/triggers/webhook-event.js';
import { examplePayload } from '../support/webhook-client.js';

describe('webhookEvent: a delivery read once', () => {
  it("an issue's label, with its issue and repository; where the 👀 goes", () => {
    const payload = examplePayload('issues', 'labeled');
    const event = webhookEvent('issues', payload);
    expect(event).toMatchObject({ name: 'issues', action: 'labeled', payload, requestsChanges: false });
    expect(event.label).toEqual({ action: 'labeled', name: payload.label.name, number: payload.issue.number, repoId: payload.repository.id });
    expect(event.reactTarget).toEqual({ number: payload.issue.number, commentId: null });
  });

  it('a comment gets the 👀 itself; a review, on its pull request', () => {
    const comment = examplePayload('issue_comment', 'created');
    expect(webhookEvent('issue_comment', comment).reactTarget).toEqual({ number: comment.issue.number, commentId: comment.comment.id });
    expect(webhookEvent('issue_comment', comment).label).toBeNull();
    const review = examplePayload('pull_request_review', 'submitted');
    review.review.state = 'CHANGES_REQUESTED';
    const event = webhookEvent('pull_request_review', review);
    expect(event.reactTarget).toEqual({ number: review.pull_request.number, commentId: null });
    expect(event.requestsChanges).toBe(true);
    review.review.state = 'approved';
    expect(webhookEvent('pull_request_review', review).requestsChanges).toBe(false);
  });

  it('a label under another event is not a label event; garbage is read as nothing, never thrown', () => {
    const labelled = examplePayload('issues', 'labeled');
    expect(webhookEvent('pull_request', labelled).label).toBeNull();
    for (const garbage of [null, undefined, 42, 'x', [], {}, { action: 7 }]) {
      expect(webhookEvent('issues', garbage)).toEqual({ name: 'issues', action: undefined, payload: garbage, repository: null, label: null, reactTarget: null, requestsChanges: false, contentKey: undefined });
    }
  });
});
