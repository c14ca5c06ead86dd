import { readJournal } from '../../src/agent/journal.js';
import { type JournalRecord } from '../../src/agent/journal-schema.js';
import { runAgent } from '../../src/agent/loop.js';
import { replayJournal } from '../../src/agent/resume-replay.js';
import { applyRecord, emptyAgentState } from '../../src/agent/state.js';
import { tempFixture, testDeps, type TempFixture } from './helpers/deps.js';
import { InlineModel, calls, say } from './helpers/inline-model.js';
import { echoTool, finishTool, testsTool } from './helpers/test-tools.js';

const input = { task: 'fix it', systemPrompt: 'sys' };
const tree = 'c'.repeat(40);

describe('applyRecord', () => {
  let tmp: TempFixture;
  beforeEach(() => (tmp = tempFixture()));
  afterEach(() => tmp.cleanup());

  it('folding a live run journal gives, before each reply, exactly the messages the model was sent', async () => {
    const tests = { green: true, tree };
    const echo = calls(['echo', { text: 'same' }]);
    // a nudge, a stuck warning (the same call and result three times), a verification, a finish
    const model = new InlineModel([say('thinking'), echo, echo, echo, calls(['run_tests', {}]), calls(['finish', { summary: 'done' }])]);
    const deps = testDeps(tmp, model, [echoTool(), testsTool(tests), finishTool()]);
    const outcome = await runAgent(deps, input);
    expect(outcome).toMatchObject({ status: 'verified', steps: 6 });
    const records = readJournal(deps.journal.path);
    expect(records.map((r) => r.type)).toEqual(expect.arrayContaining(['observation', 'warning', 'verified', 'finish']));
    const assistantAt = records.flatMap((r, i) => (r.type === 'assistant' ? [i] : []));
    expect(assistantAt).toHaveLength(model.requests.length);
    assistantAt.forEach((at, k) => expect(replayJournal(records.slice(0, at)).messages).toEqual(model.requests[k]?.messages));
    const folded = replayJournal(records);
    expect(folded).toMatchObject({ steps: 6, tokens: { prompt: 600, completion: 60 }, verified: { tree }, pending: [], outcome });
  });

  it('reads a journal in the existing record format: pending calls, started ones, verification, tokens', () => {
    const verified = { tree, command: 'npm test', exitCode: 0 as const, durationMs: 5, outputTail: 'ok' };
    const call = (id: string, name: string) => ({ id, name, arguments: '{}' });
    const records: JournalRecord[] = [
      { type: 'start', at: 1, task: 't', taskMessage: 'Task:\nt', systemPrompt: 's', model: 'm', config: {} },
      { type: 'assistant', at: 2, step: 1, message: { role: 'assistant', content: null, toolCalls: [call('a', 'run_tests'), call('b', 'echo'), call('c', 'echo')] }, usage: { promptTokens: 7, completionTokens: 3 } },
      { type: 'tool_start', at: 3, step: 1, callId: 'a', name: 'run_tests', args: '{}' },
      { type: 'tool_end', at: 4, callId: 'a', name: 'run_tests', result: { ok: true, output: 'passed', verified } },
      { type: 'verified', at: 5, tree: verified },
      { type: 'tool_start', at: 6, step: 1, callId: 'b', name: 'echo', args: '{}' },
      { type: 'tool_end', at: 7, callId: 'zz', name: 'echo', result: { ok: true, output: 'for no call' } },
    ];
    const state = replayJournal(records);
    expect(state).toMatchObject({ steps: 1, tokens: { prompt: 7, completion: 3 }, verified, priorElapsedMs: 6, finish: null, outcome: null });
    expect(state.pending.map((p) => [p.call.id, p.started])).toEqual([
      ['b', true],
      ['c', false],
    ]);
    expect(state.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
  });

  it('an accepted finish makes the calls after it moot; a warning record answers a warn verdict', () => {
    const state = emptyAgentState();
    applyRecord(state, { type: 'start', task: 't', taskMessage: 'Task:\nt', systemPrompt: 's', model: 'm', config: {} });
    const finishCall = { id: 'f', name: 'finish', arguments: '{}' };
    applyRecord(state, { type: 'assistant', step: 1, message: { role: 'assistant', content: null, toolCalls: [finishCall, { id: 'g', name: 'echo', arguments: '{}' }] }, usage: { promptTokens: 1, completionTokens: 1 } });
    applyRecord(state, { type: 'tool_end', callId: 'f', name: 'finish', result: { ok: true, output: 'finished', finish: { summary: 's', gaveUp: true } } });
    expect(state).toMatchObject({ finish: { summary: 's', gaveUp: true }, pending: [] });
    state.verdict = { kind: 'warn', reason: 'looping' };
    applyRecord(state, { type: 'warning', step: 1, text: 'you seem stuck' });
    expect(state.verdict).toEqual({ kind: 'ok' });
    expect(state.messages.at(-1)).toEqual({ role: 'user', content: 'you seem stuck' });
  });
});
