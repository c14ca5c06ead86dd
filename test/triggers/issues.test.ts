import { triggerFor } from '../../src/triggers/route.js';
import { MAX_BODY_CHARS } from '../../src/triggers/payload-helpers.js';
import { CTX } from './context.js';
import { EXAMPLE_INSTALLATION_ID, examplePayload } from './payloads.js';
import { webhookEvent } from '../../src/triggers/webhook-event.js';

const labeled = (overrides: object = {}) => examplePayload('issues', 'labeled', { label: { name: 'agent-fix' }, ...overrides });

describe('issues triggers', () => {
  it('labeled with our label → an issue job, sender to authorise', () => {
    const result = triggerFor(webhookEvent('issues', labeled()), CTX);
    expect(result).toEqual({
      type: 'job',
      authorize: true,
      request: {
        kind: 'issue',
        installationId: EXAMPLE_INSTALLATION_ID,
        repo: {
          id: 186853002,
          owner: 'Codertocat',
          name: 'Hello-World',
          cloneUrl: 'https://github.com/Codertocat/Hello-World.git',
          defaultBranch: 'master',
        },
        number: 1,
        target: 'issue',
        title: 'Spelling error in the README file',
        body: "It looks like you accidently spelled 'commit' with two 't's.",
        sender: 'Codertocat',
      },
    });
  });

  it('compares the label without case, and uses the configured one', () => {
    expect(triggerFor(webhookEvent('issues', labeled({ label: { name: 'Agent-Fix' } })), CTX).type).toBe('job');
    expect(triggerFor(webhookEvent('issues', labeled({ label: { name: 'fix-me' } })), { ...CTX, label: 'fix-me' }).type).toBe('job');
  });

  it('another label is ignored (the example itself is labelled `bug`)', () => {
    expect(triggerFor(webhookEvent('issues', examplePayload('issues', 'labeled')), CTX)).toEqual({ type: 'ignored', reason: 'label is not `agent-fix`' });
  });

  it('a null body becomes empty; a huge body is cut with a marker', () => {
    const empty = triggerFor(webhookEvent('issues', labeled({ issue: { body: null } })), CTX);
    expect(empty.type === 'job' && empty.request.body).toBe('');
    const huge = triggerFor(webhookEvent('issues', labeled({ issue: { body: 'a'.repeat(200_000) } })), CTX);
    const body = huge.type === 'job' ? huge.request.body : '';
    expect(body.startsWith('a'.repeat(MAX_BODY_CHARS))).toBe(true);
    expect(body).toContain('[greenfix: the body was cut at 65536 characters of 200000]');
    expect(body.length).toBeLessThan(MAX_BODY_CHARS + 100);
  });

  it('bots never start a fix; greenfix ignores itself', () => {
    const bot = triggerFor(webhookEvent('issues', labeled({ sender: { login: 'renovate[bot]', type: 'Bot' } })), CTX);
    expect(bot).toEqual({ type: 'ignored', reason: 'bots never start a fix (renovate[bot])' });
    expect(triggerFor(webhookEvent('issues', labeled({ sender: { login: 'helper[bot]', type: 'User' } })), CTX).type).toBe('ignored');
    expect(triggerFor(webhookEvent('issues', labeled({ sender: { login: 'greenfix[bot]', type: 'Bot' } })), CTX)).toEqual({
      type: 'ignored',
      reason: 'greenfix ignores its own events',
    });
  });

  it('unlabeled (our label) → a cancel that needs no permission check', () => {
    const result = triggerFor(webhookEvent('issues', examplePayload('issues', 'unlabeled', { label: { name: 'agent-fix' } })), CTX);
    expect(result).toMatchObject({
      type: 'cancel',
      authorize: false,
      request: { number: 1, target: 'issue', explicit: false, reason: 'the `agent-fix` label was removed', sender: 'Codertocat' },
    });
    expect(triggerFor(webhookEvent('issues', examplePayload('issues', 'unlabeled', { label: { name: 'bug' } })), CTX).type).toBe('ignored');
    expect(triggerFor(webhookEvent('issues', examplePayload('issues', 'unlabeled', { label: undefined })), CTX).type).toBe('ignored');
  });

  it('closed → a cancel, checked for a person (an author may close their own issue), not for an app or greenfix', () => {
    // The examples have no issues.closed: an opened issue with the action changed is the same shape.
    const closed = examplePayload('issues', 'opened', { action: 'closed', issue: { state: 'closed' } });
    expect(triggerFor(webhookEvent('issues', closed), CTX)).toMatchObject({
      type: 'cancel',
      authorize: true,
      request: { target: 'issue', explicit: false, reason: 'the issue was closed', sender: 'Codertocat' },
    });
    const byStaleBot = { ...closed, sender: { login: 'stale[bot]', type: 'Bot' } };
    expect(triggerFor(webhookEvent('issues', byStaleBot), CTX)).toMatchObject({ type: 'cancel', authorize: false });
    const bySelf = { ...closed, sender: { login: CTX.botLogin, type: 'Bot' } };
    expect(triggerFor(webhookEvent('issues', bySelf), CTX)).toMatchObject({ type: 'cancel', authorize: false });
  });

  it('labelling a closed issue → a polite refusal, not a job', () => {
    const result = triggerFor(webhookEvent('issues', labeled({ issue: { state: 'closed' } })), CTX);
    expect(result).toMatchObject({ type: 'refuse', refusal: { code: 'closed', number: 1, sender: 'Codertocat' } });
    expect(result.type === 'refuse' && result.refusal.message).toContain('This issue is closed');
  });

  it('other actions are ignored', () => {
    expect(triggerFor(webhookEvent('issues', examplePayload('issues', 'opened')), CTX)).toEqual({ type: 'ignored', reason: 'issues.opened is not a trigger' });
    expect(triggerFor(webhookEvent('issues', examplePayload('issues', 'edited')), CTX).type).toBe('ignored');
  });

  it('a malformed payload is ignored with the field that is wrong, never thrown', () => {
    const result = triggerFor(webhookEvent('issues', labeled({ issue: { number: 'one' } })), CTX);
    expect(result.type).toBe('ignored');
    expect(result.type === 'ignored' && result.reason).toMatch(/^malformed issues payload: issue\.number: /);
    const noInstallation = triggerFor(webhookEvent('issues', labeled({ installation: undefined })), CTX);
    expect(noInstallation.type === 'ignored' && noInstallation.reason).toMatch(/^malformed issues payload: installation/);
  });
});
