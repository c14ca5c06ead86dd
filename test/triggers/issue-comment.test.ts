import { triggerFor } from '../../src/triggers/route.js';
import { CTX } from './context.js';
import { examplePayload } from './payloads.js';
import { webhookEvent } from '../../src/triggers/webhook-event.js';

const comment = (body: string | null, overrides: object = {}) =>
  examplePayload('issue_comment', 'created', { comment: { body }, ...overrides });
const onPullRequest = { issue: { pull_request: { url: 'https://api.github.com/repos/Codertocat/Hello-World/pulls/1' } } };

describe('issue_comment triggers', () => {
  it('/agent retry on an issue → a retry job on the issue with instructions', () => {
    const result = triggerFor(webhookEvent('issue_comment', comment('/agent retry use the new API\nplease')), CTX);
    expect(result).toMatchObject({
      type: 'job',
      authorize: true,
      request: {
        kind: 'retry',
        target: 'issue',
        number: 1,
        title: 'Spelling error in the README file',
        sender: 'Codertocat',
        instructions: 'use the new API\nplease',
      },
    });
  });

  it('/agent retry on a pull request targets the pull request; no instructions → no key', () => {
    const result = triggerFor(webhookEvent('issue_comment', comment('/agent retry', onPullRequest)), CTX);
    expect(result).toMatchObject({ type: 'job', request: { kind: 'retry', target: 'pull_request' } });
    expect(result.type === 'job' && 'instructions' in result.request).toBe(false);
  });

  it('/agent cancel → an explicit cancel, sender to authorise', () => {
    expect(triggerFor(webhookEvent('issue_comment', comment('/agent cancel', onPullRequest)), CTX)).toMatchObject({
      type: 'cancel',
      authorize: true,
      request: { target: 'pull_request', explicit: true, reason: '/agent cancel', number: 1 },
    });
  });

  it('/agent retry on a closed PR → a refusal; /agent cancel still cancels', () => {
    const closedPr = { issue: { state: 'closed', pull_request: { url: 'https://api.github.com/repos/Codertocat/Hello-World/pulls/1' } } };
    const retry = triggerFor(webhookEvent('issue_comment', comment('/agent retry', closedPr)), CTX);
    expect(retry).toMatchObject({ type: 'refuse', refusal: { code: 'closed' }, authorize: true });
    expect(retry.type === 'refuse' && retry.refusal.message).toContain('This pull request is closed');
    expect(triggerFor(webhookEvent('issue_comment', comment('/agent cancel', closedPr)), CTX).type).toBe('cancel');
  });

  it('an unknown /agent command → a polite refusal listing the commands', () => {
    const result = triggerFor(webhookEvent('issue_comment', comment('/agent fix')), CTX);
    expect(result).toMatchObject({ type: 'refuse', refusal: { code: 'unknown_command', number: 1, sender: 'Codertocat' }, authorize: true });
    expect(result.type === 'refuse' && result.refusal.message).toContain('/agent retry');
  });

  it('other comments, empty bodies and other actions are ignored', () => {
    expect(triggerFor(webhookEvent('issue_comment', examplePayload('issue_comment', 'created')), CTX)).toEqual({
      type: 'ignored',
      reason: 'the comment is not an /agent command',
    });
    expect(triggerFor(webhookEvent('issue_comment', comment(null)), CTX).type).toBe('ignored');
    expect(triggerFor(webhookEvent('issue_comment', examplePayload('issue_comment', 'edited', { comment: { body: '/agent retry' } })), CTX).type).toBe(
      'ignored',
    );
  });

  it('bots never run commands; greenfix ignores its own comments (which explain /agent retry)', () => {
    const bot = comment('/agent retry', { sender: { login: 'dependabot[bot]', type: 'Bot' } });
    expect(triggerFor(webhookEvent('issue_comment', bot), CTX)).toEqual({ type: 'ignored', reason: 'bots never run /agent commands (dependabot[bot])' });
    const self = comment('/agent retry', { sender: { login: 'GreenFix[bot]', type: 'Bot' } });
    expect(triggerFor(webhookEvent('issue_comment', self), CTX)).toEqual({ type: 'ignored', reason: 'greenfix ignores its own events' });
  });

  it('a malformed payload is ignored', () => {
    const result = triggerFor(webhookEvent('issue_comment', comment('/agent retry', { repository: { clone_url: 7 } })), CTX);
    expect(result.type === 'ignored' && result.reason).toMatch(/^malformed issue_comment payload: repository\.clone_url/);
  });
});
