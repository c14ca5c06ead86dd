import * as fs from 'node:fs';
import * as path from 'node:path';
import { JournalCorruptError, openJournal, readJournal } from '../../src/agent/journal.js';
import { type JournalEntry } from '../../src/agent/journal-schema.js';
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

  it('writes one stamped JSON line per record and reads them back', () => {
    const j = openJournal(file, () => 42);
    j.append(start);
    j.append(assistant);
    j.close();
    expect(fs.readFileSync(file, 'utf8').split('\n')).toHaveLength(3);
    expect(readJournal(file)).toEqual([{ ...start, at: 42 }, { ...assistant, at: 42 }]);
  });

  it('ignores a torn last line, and a reopened journal cuts it so new records stay whole', () => {
    const j = openJournal(file);
    j.append(start);
    j.close();
    fs.appendFileSync(file, '{"type":"assistant","step":1,"mess'); // what kill -9 mid-write leaves
    expect(readJournal(file).map((r) => r.type)).toEqual(['start']);
    const again = openJournal(file);
    again.append(assistant);
    again.close();
    expect(readJournal(file).map((r) => r.type)).toEqual(['start', 'assistant']);
  });

  it('refuses a damaged line that is not the last', () => {
    fs.writeFileSync(file, `${JSON.stringify({ ...start, at: 1 })}\n{"type":"nonsense"}\n${JSON.stringify({ ...assistant, at: 2 })}\n`);
    expect(() => readJournal(file)).toThrow(JournalCorruptError);
    try {
      readJournal(file);
    } catch (err) {
      expect(err).toMatchObject({ line: 2, path: file });
    }
  });

  it('refuses to write a record that is not one', () => {
    const j = openJournal(file);
    tmp.defer(() => j.close());
    expect(() => j.append({ type: 'warning', step: 'one' } as never)).toThrow();
    expect(readJournal(file)).toEqual([]);
  });

  it("keeps what a provider needs back (DeepSeek's reasoning, Gemini's extra_content) and estimated usage, so a resumed run sends them again", () => {
    const j = openJournal(file, () => 7);
    const reply: JournalEntry = {
      type: 'assistant',
      step: 1,
      message: { role: 'assistant', content: null, reasoning: 'think', toolCalls: [{ id: 'c1', name: 'echo', arguments: '{}', extra: { google: { thought_signature: 'c2ln' } } }] },
      usage: { promptTokens: 10, completionTokens: 5, reasoningTokens: 3, estimated: true },
    };
    j.append(reply);
    j.close();
    expect(readJournal(file)).toEqual([{ ...reply, at: 7 }]);
  });

  it('reads a missing journal as empty', () => expect(readJournal(path.join(tmp.dir, 'none.jsonl'))).toEqual([]));
});
