import * as fs from 'node:fs';
import * as path from 'node:path';
import { JournalCorruptError, openJournal, readJournal } from '../../src/agent/journal.js';
import { type JournalEntry } from '../../src/agent/journal-schema.js';
import { REDACTED_TEXT } from '../../src/util/redact-text.js';
import { FAKE_SECRETS as S } from '../support/fake-secrets.js';
import { tempFixture, type TempFixture } from './helpers/deps.js';

const start: JournalEntry = { type: 'start', task: 't', taskMessage: 'Task:\nt', systemPrompt: 's', model: 'm', config: { maxSteps: 5 } };
const assistant: JournalEntry = {
  type: 'assistant',
  step: 1,
  message: { role: 'assistant', content: null, toolCalls: [{ id: 'c1', name: 'echo', arguments: '{}' }] },
  usage: { promptTokens: 1, completionTokens: 2 },
};

describe('journal', () => {
  let tmp: TempFixture;
  let file: string;
  beforeEach(() => {
    tmp = tempFixture();
    file = path.join(tmp.dir, 'run.jsonl');
  });
  afterEach(() => tmp.cleanup());

  it('writes one stamped JSON line per record and reads them back', async () => {
    const j = openJournal(file, () => 42);
    await j.append(start);
    await j.append(assistant);
    j.close();
    expect(fs.readFileSync(file, 'utf8').split('\n')).toHaveLength(3);
    expect(readJournal(file)).toEqual([{ ...start, at: 42 }, { ...assistant, at: 42 }]);
  });

  it('redacts at write, by the rules the run log renders with: token-shaped output never reaches the disk', async () => {
    const output = [
      `GITHUB_TOKEN=${S.githubClassicToken}`,
      `aws_access_key_id = ${S.awsAccessKeyId}`,
      `Authorization: Bearer ${S.jwt}`,
      S.pemHeader,
      S.pemBody,
      '-----END RSA PRIVATE KEY-----',
      'cloning https://x-access-token:v1.0123456789abcdef0123456789abcdef01234567@github.com/o/r.git',
      'the operator key is kept-secret-12345',
      '3 tests passed',
    ].join('\n');
    const j = openJournal(file, () => 1, ['kept-secret-12345']);
    await j.append({ type: 'tool_end', callId: 'c1', name: 'run', result: { ok: true, output } });
    await j.append({ type: 'observation', step: 1, text: `npm whoami: ${S.githubServerToken}` });
    j.close();
    const disk = fs.readFileSync(file, 'utf8');
    for (const value of [S.githubClassicToken, S.githubServerToken, S.awsAccessKeyId, S.jwt, S.pemBody, '0123456789abcdef0123456789abcdef01234567', 'kept-secret-12345']) {
      expect(disk).not.toContain(value);
    }
    const [end] = readJournal(file);
    expect(end).toMatchObject({ type: 'tool_end', callId: 'c1', name: 'run' });
    const text = end!.type === 'tool_end' ? end!.result.output : '';
    expect(text).toContain(`GITHUB_TOKEN=${REDACTED_TEXT}`);
    expect(text).toContain('3 tests passed');
  });

  it('a tool call whose arguments hold a token stays valid JSON once redacted', async () => {
    const args = JSON.stringify({ command: `echo "token=${S.githubClassicToken}" && echo password=hunter2\\x` });
    const j = openJournal(file, () => 1);
    await j.append({ type: 'tool_start', step: 1, callId: 'c1', name: 'run', args });
    await j.append({ ...assistant, message: { role: 'assistant', content: null, toolCalls: [{ id: 'c1', name: 'run', arguments: args }] } });
    j.close();
    const [start, reply] = readJournal(file);
    const written = start!.type === 'tool_start' ? start!.args : '';
    expect(JSON.parse(written)).toEqual({ command: `echo "token=${REDACTED_TEXT}" && echo password=${REDACTED_TEXT}` });
    const message = reply!.type === 'assistant' ? reply!.message : null;
    expect(message && 'toolCalls' in message ? message.toolCalls?.[0]?.arguments : null).toBe(written);
    expect(fs.readFileSync(file, 'utf8')).not.toContain(S.githubClassicToken);
  });

  it('ignores a torn last line, and a reopened journal cuts it so new records stay whole', async () => {
    const j = openJournal(file);
    await j.append(start);
    j.close();
    fs.appendFileSync(file, '{"type":"assistant","step":1,"mess'); // what kill -9 mid-write leaves
    expect(readJournal(file).map((r) => r.type)).toEqual(['start']);
    const again = openJournal(file);
    await again.append(assistant);
    again.close();
    expect(readJournal(file).map((r) => r.type)).toEqual(['start', 'assistant']);
  });

  it('refuses a damaged line that is not the last', async () => {
    fs.writeFileSync(file, `${JSON.stringify({ ...start, at: 1 })}\n{"type":"nonsense"}\n${JSON.stringify({ ...assistant, at: 2 })}\n`);
    expect(() => readJournal(file)).toThrow(JournalCorruptError);
    try {
      readJournal(file);
    } catch (err) {
      expect(err).toMatchObject({ line: 2, path: file });
    }
  });

  it('refuses to write a record that is not one', async () => {
    const j = openJournal(file);
    tmp.defer(() => j.close());
    expect(() => j.append({ type: 'warning', step: 'one' } as never)).toThrow();
    expect(readJournal(file)).toEqual([]);
  });

  it("keeps what a provider needs back (DeepSeek's reasoning, Gemini's extra_content) and estimated usage, so a resumed run sends them again", async () => {
    const j = openJournal(file, () => 7);
    const reply: JournalEntry = {
      type: 'assistant',
      step: 1,
      message: { role: 'assistant', content: null, reasoning: 'think', toolCalls: [{ id: 'c1', name: 'echo', arguments: '{}', extra: { google: { thought_signature: 'c2ln' } } }] },
      usage: { promptTokens: 10, completionTokens: 5, reasoningTokens: 3, estimated: true },
    };
    await j.append(reply);
    j.close();
    expect(readJournal(file)).toEqual([{ ...reply, at: 7 }]);
  });

  it('reads a missing journal as empty', () => expect(readJournal(path.join(tmp.dir, 'none.jsonl'))).toEqual([]));
});
