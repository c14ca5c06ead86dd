import { triggerFor } from '../../src/triggers/route.js';
import { CTX } from './context.js';
import { examplePayload } from './payloads.js';
import { webhookEvent } from '../../src/triggers/webhook-event.js';

const review = (body: string | null, state = 'commented', overrides: object = {}) =>
  examplePayload('pull_request_review', 'submitted', { review: { body, state }, ...overrides });
const reviewComment = (body: string, overrides: object = {}) =>
  examplePayload('pull_request_review_comment', 'created', { comment: { body }, ...overrides });

describe('pull_request_review triggers', () => {
  it('/agent in the review body → one review job for the whole review, sender to authorise', () => {
    const result = triggerFor(webhookEvent('pull_request_review', review('/agent')), CTX);
    expect(result).toMatchObject({
      type: 'job',
      authorize: true,
      request: { kind: 'review', target: 'pull_request', number: 2, sender: 'Codertocat', review: { reviewId: 237895671, body: '/agent' } },
    });
    expect(result.type === 'job' && result.quiet).toBeFalsy();
    expect(result.type === 'job' && 'instructions' in result.request).toBe(false);
  });

  it('/agent retry <instructions> in the review body → the instructions go with the job', () => {
    const result = triggerFor(webhookEvent('pull_request_review', review('/agent retry keep the old name\nand add a test')), CTX);
    expect(result).toMatchObject({ type: 'job', request: { kind: 'review', instructions: 'keep the old name\nand add a test' } });
  });

  it('a review without /agent is ignored; changes_requested only with review.on_request_changes, quietly', () => {
    expect(triggerFor(webhookEvent('pull_request_review', review('Looks good')), CTX)).toMatchObject({ type: 'ignored' });
    expect(triggerFor(webhookEvent('pull_request_review', review('Please fix these', 'changes_requested')), CTX)).toMatchObject({
      type: 'ignored',
      reason: expect.stringContaining('on_request_changes'),
    });
    const on = triggerFor(webhookEvent('pull_request_review', review('Please fix these', 'changes_requested')), { ...CTX, reviewOnRequestChanges: true });
    expect(on).toMatchObject({ type: 'job', quiet: true, authorize: true, request: { kind: 'review', review: { reviewId: 237895671, body: 'Please fix these' } } });
    // Approvals and plain comments never start a job, whatever the option.
    expect(triggerFor(webhookEvent('pull_request_review', review('nice', 'approved')), { ...CTX, reviewOnRequestChanges: true })).toMatchObject({ type: 'ignored' });
  });

  it("greenfix's own reviews and bots' reviews never trigger", () => {
    expect(triggerFor(webhookEvent('pull_request_review', review('/agent', 'commented', { sender: { login: 'greenfix[bot]', type: 'Bot' } })), CTX)).toMatchObject({ type: 'ignored' });
    expect(triggerFor(webhookEvent('pull_request_review', review('/agent', 'changes_requested', { sender: { login: 'renovate[bot]', type: 'Bot' } })), { ...CTX, reviewOnRequestChanges: true })).toMatchObject({ type: 'ignored' });
  });

  it('edited and dismissed reviews are not triggers; /agent cancel cancels; /agent <free text> is an instruction', () => {
    expect(triggerFor(webhookEvent('pull_request_review', examplePayload('pull_request_review', 'dismissed')), CTX)).toMatchObject({ type: 'ignored' });
    expect(triggerFor(webhookEvent('pull_request_review', review('/agent cancel')), CTX)).toMatchObject({ type: 'cancel', authorize: true, request: { number: 2, explicit: true } });
    expect(triggerFor(webhookEvent('pull_request_review', review('/agent rename these helpers\nand keep the tests')), CTX)).toMatchObject({
      type: 'job',
      request: { kind: 'review', instructions: 'rename these helpers\nand keep the tests' },
    });
  });

  it('on a closed PR → a refusal, answered to collaborators only', () => {
    expect(triggerFor(webhookEvent('pull_request_review', review('/agent', 'commented', { pull_request: { state: 'closed' } })), CTX)).toMatchObject({
      type: 'refuse',
      authorize: true,
      refusal: { code: 'closed' },
    });
  });

  it('a quoted command is not one; a malformed payload is ignored with the field', () => {
    expect(triggerFor(webhookEvent('pull_request_review', review('> /agent')), CTX)).toMatchObject({ type: 'ignored' });
    expect(triggerFor(webhookEvent('pull_request_review', review('/agent', 'commented', { review: { id: 'x' } })), CTX)).toMatchObject({
      type: 'ignored',
      reason: expect.stringContaining('review.id'),
    });
  });
});

describe('pull_request_review_comment triggers', () => {
  it('/agent in a review comment → a review job for that comment only', () => {
    const result = triggerFor(webhookEvent('pull_request_review_comment', reviewComment('/agent')), CTX);
    expect(result).toMatchObject({ type: 'job', authorize: true, request: { kind: 'review', number: 2, review: { commentId: 284312630, body: '' } } });
    expect(result.type === 'job' && result.request.review?.reviewId).toBeUndefined();
    expect(triggerFor(webhookEvent('pull_request_review_comment', reviewComment('/agent use a const here')), CTX)).toMatchObject({
      type: 'job',
      request: { kind: 'review', instructions: 'use a const here', review: { commentId: 284312630 } },
    });
  });

  it('a plain review comment, an edit or a deletion is ignored; bots and greenfix never trigger', () => {
    expect(triggerFor(webhookEvent('pull_request_review_comment', reviewComment('Maybe more emoji')), CTX)).toMatchObject({ type: 'ignored' });
    expect(triggerFor(webhookEvent('pull_request_review_comment', examplePayload('pull_request_review_comment', 'edited', { comment: { body: '/agent' } })), CTX)).toMatchObject({ type: 'ignored' });
    expect(triggerFor(webhookEvent('pull_request_review_comment', reviewComment('/agent', { sender: { login: 'greenfix[bot]', type: 'Bot' } })), CTX)).toMatchObject({ type: 'ignored' });
    expect(triggerFor(webhookEvent('pull_request_review_comment', reviewComment('/agent', { sender: { login: 'other[bot]', type: 'Bot' } })), CTX)).toMatchObject({ type: 'ignored' });
  });
});
