import { triggerFor } from '../../src/triggers/route.js';
import { CTX } from './context.js';
import { examplePayload } from './payloads.js';
import { webhookEvent } from '../../src/triggers/webhook-event.js';

describe('pull_request triggers', () => {
  it('closed → a cancel for that pull request', () => {
    const payload = examplePayload('pull_request', 'closed');
    expect(triggerFor(webhookEvent('pull_request', payload), CTX)).toEqual({
      type: 'cancel',
      authorize: false,
      request: {
        installationId: (payload.installation as { id: number }).id,
        repo: expect.objectContaining({ owner: 'Codertocat', name: 'Hello-World' }),
        number: 2,
        target: 'pull_request',
        sender: 'Codertocat',
        reason: 'the pull request was closed',
        explicit: false,
      },
    });
  });

  it('closed with merged → the same cancel, and the merge with its time', () => {
    const payload = examplePayload('pull_request', 'closed', { pull_request: { merged: true, merged_at: '2026-11-30T12:00:00Z' } });
    expect(triggerFor(webhookEvent('pull_request', payload), CTX)).toMatchObject({
      type: 'cancel',
      request: { number: 2, reason: 'the pull request was closed' },
      merged: { at: Date.parse('2026-11-30T12:00:00Z') },
    });
    const noTime = examplePayload('pull_request', 'closed', { pull_request: { merged: true, merged_at: 'not a date' } });
    expect(triggerFor(webhookEvent('pull_request', noTime), CTX)).toMatchObject({ type: 'cancel', merged: { at: null } });
    expect(triggerFor(webhookEvent('pull_request', examplePayload('pull_request', 'closed')), CTX)).not.toHaveProperty('merged');
  });

  it('other actions, and greenfix closing its own PR, are ignored', () => {
    expect(triggerFor(webhookEvent('pull_request', examplePayload('pull_request', 'opened')), CTX).type).toBe('ignored');
    const self = examplePayload('pull_request', 'closed', { sender: { login: 'greenfix[bot]', type: 'Bot' } });
    expect(triggerFor(webhookEvent('pull_request', self), CTX).type).toBe('ignored');
  });
});
