import { agentCommandHelp, parseAgentCommand } from '../../src/triggers/agent-command.js';
import { triggerFor } from '../../src/triggers/route.js';
import { jobRequestSchema } from '../../src/queue/job-request-schema.js';
import { CTX } from './context.js';
import { examplePayload } from './payloads.js';
import { webhookEvent } from '../../src/triggers/webhook-event.js';

const comment = (body: string, overrides: object = {}) => examplePayload('issue_comment', 'created', { comment: { body }, ...overrides });

describe('/agent doctor', () => {
  it('parses (any case), is listed in the help, and becomes a doctor job that needs write access', () => {
    expect(parseAgentCommand('/agent doctor')).toEqual({ kind: 'doctor' });
    expect(parseAgentCommand('  /Agent DOCTOR please')).toEqual({ kind: 'doctor' });
    expect(agentCommandHelp('x')).toContain('`/agent doctor`');
    const result = triggerFor(webhookEvent('issue_comment', comment('/agent doctor')), CTX);
    expect(result).toMatchObject({ type: 'job', authorize: true, request: { kind: 'doctor', target: 'issue', number: 1, body: '' } });
    if (result.type !== 'job') throw new Error('not a job');
    expect(jobRequestSchema.parse(result.request)).toMatchObject({ kind: 'doctor' });
  });

  it('bots never run it', () => {
    const result = triggerFor(webhookEvent('issue_comment', comment('/agent doctor', { sender: { login: 'renovate[bot]', type: 'Bot', id: 2 } })), CTX);
    expect(result.type).toBe('ignored');
  });
});
