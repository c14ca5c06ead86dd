import { agentCommandHelp, MAX_INSTRUCTIONS_CHARS, parseAgentCommand } from '../../src/triggers/agent-command.js';

describe('parseAgentCommand', () => {
  it.each([
    ['/agent retry', { kind: 'retry' }],
    ['/agent cancel', { kind: 'cancel' }],
    ['/agent  retry', { kind: 'retry' }],
    ['/agent\tretry', { kind: 'retry' }],
    ['/agent retry   ', { kind: 'retry' }],
    ['/agent cancel  \n', { kind: 'cancel' }],
    ['  \n\n /agent retry', { kind: 'retry' }],
    ['/AGENT Retry', { kind: 'retry' }],
    ['/Agent CANCEL', { kind: 'cancel' }],
    ['/agent retry\r\n', { kind: 'retry' }],
  ])('%j → %j', (body, expected) => {
    expect(parseAgentCommand(body)).toEqual(expected);
  });

  it.each([
    ['/agentretry'],
    ['/agents retry'],
    ['please /agent retry'],
    ['> /agent retry'],
    ['```\n/agent retry\n```'],
    ['`/agent retry`'],
    [''],
    ['LGTM'],
  ])('%j is not a command', (body) => {
    expect(parseAgentCommand(body)).toBeUndefined();
  });

  it('takes the rest of the text, over several lines, as instructions', () => {
    expect(parseAgentCommand('/agent retry  use the v2 API\n\nand keep the tests  \n')).toEqual({
      kind: 'retry',
      instructions: 'use the v2 API\n\nand keep the tests',
    });
    expect(parseAgentCommand('/agent retry\n```ts\nfoo()\n```')).toEqual({ kind: 'retry', instructions: '```ts\nfoo()\n```' });
  });

  it('cuts instructions at 10,000 characters and says so', () => {
    const long = 'x'.repeat(MAX_INSTRUCTIONS_CHARS + 500);
    const command = parseAgentCommand(`/agent retry ${long}`);
    expect(command?.kind).toBe('retry');
    const instructions = command?.kind === 'retry' ? (command.instructions ?? '') : '';
    expect(instructions.startsWith('x'.repeat(MAX_INSTRUCTIONS_CHARS))).toBe(true);
    expect(instructions).not.toContain('x'.repeat(MAX_INSTRUCTIONS_CHARS + 1));
    expect(instructions).toContain(`cut at 10000 characters of ${MAX_INSTRUCTIONS_CHARS + 500}`);
  });

  it('reports /agent alone or with an unknown word, sanitised for display', () => {
    expect(parseAgentCommand('/agent')).toEqual({ kind: 'unknown', word: '' });
    expect(parseAgentCommand('/agent\nretry')).toEqual({ kind: 'unknown', word: '' });
    expect(parseAgentCommand('/agent fix it')).toEqual({ kind: 'unknown', word: 'fix' });
    expect(parseAgentCommand('/agent retry: now')).toEqual({ kind: 'unknown', word: 'retry:' });
    expect(parseAgentCommand('/agent `x`@everyone')).toEqual({ kind: 'unknown', word: 'x@everyone' });
    expect(parseAgentCommand(`/agent ${'y'.repeat(100)}`)).toEqual({ kind: 'unknown', word: 'y'.repeat(30) });
    expect(parseAgentCommand('/agent cancelled')).toEqual({ kind: 'unknown', word: 'cancelled' });
  });

  it('help names the unknown command and lists both commands', () => {
    const help = agentCommandHelp('fix');
    expect(help).toContain('`/agent fix`');
    expect(help).toContain('`/agent retry [instructions]`');
    expect(help).toContain('`/agent cancel`');
    expect(agentCommandHelp('')).toContain('has no command');
  });
});
