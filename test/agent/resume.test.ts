import { readFileSync, writeFileSync } from 'node:fs';
import { crashingJournal } from '../../src/agent/crashing-journal.js';
import { readJournal } from '../../src/agent/journal.js';
import { runAgent } from '../../src/agent/loop.js';
import { NOT_STARTED, OUTCOME_UNKNOWN } from '../../src/agent/resume-repair.js';
import { resumeAgent, runOrResume } from '../../src/agent/resume.js';
import { ModelError } from '../../src/model/errors.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import type { ScriptTurn } from '../../src/model/scripted-script.js';
import type { ChatModel, ChatRequest, ToolMessage } from '../../src/model/types.js';
import type { Tool } from '../../src/agent/tools/types.js';
import { createCrashPoints } from '../../src/util/crash-points.js';
import { tempFixture, testDeps, type TempFixture, type TestDeps } from './helpers/deps.js';
import { finishTool, lookTool, testsTool, writeTool } from './helpers/test-tools.js';

class Killed extends Error {}
/** The deps with the journal a GREENFIX_CRASH_AT process gets (cli/crash-wrappers.ts). */
const crashing = (deps: TestDeps, crashPoints: ReturnType<typeof createCrashPoints>): TestDeps => ({ ...deps, journal: crashingJournal(deps.journal, crashPoints) });
const input = { task: 'fix it', systemPrompt: 'sys' };

/** The real ScriptedModel (turn = number of assistant messages sent), keeping the requests. */
function recording(turns: ScriptTurn[]): ChatModel & { requests: ChatRequest[] } {
  const inner = new ScriptedModel(turns);
  const requests: ChatRequest[] = [];
  return { name: inner.name, requests, complete: (r) => (requests.push(r), inner.complete(r)) };
}

describe('resume', () => {
  let tmp: TempFixture;
  let look: { runs: number };
  let written: string[];
  let tools: Tool[];
  const journalPath = () => `${tmp.dir}/journal.jsonl`;
  beforeEach(() => {
    tmp = tempFixture();
    look = { runs: 0 };
    written = [];
    tools = [lookTool(look), writeTool(written), testsTool({ green: true, tree: 'f'.repeat(40) }), finishTool()];
  });
  afterEach(() => tmp.cleanup());

  /** Runs until the crash point fires; the injected kill stops the run where SIGKILL would. */
  async function crashAt(point: string, turns: ScriptTurn[]): Promise<void> {
    const crashPoints = createCrashPoints({ GREENFIX_CRASH_AT: point }, () => {
      throw new Killed();
    });
    const deps = testDeps(tmp, recording(turns), tools, { execute: undefined });
    await expect(runAgent(crashing(deps, crashPoints), input)).rejects.toThrow(Killed);
    deps.journal.close();
  }

  async function resume(turns: ScriptTurn[], model = recording(turns)) {
    const deps = testDeps(tmp, model, tools, { execute: undefined });
    const outcome = await resumeAgent(deps, readJournal(journalPath()));
    return { outcome, model, deps };
  }

  const toolMessages = (r: ChatRequest | undefined) => (r?.messages.filter((m) => m.role === 'tool') ?? []) as ToolMessage[];
  const giveUp: ScriptTurn = { tool_calls: [{ name: 'finish', arguments: { summary: 'done', gave_up: true } }] };

  it('answers calls that never started as not started, running nothing', async () => {
    const turns: ScriptTurn[] = [{ tool_calls: [{ name: 'look', arguments: { path: 'a' } }, { name: 'write', arguments: { text: 'w' } }] }, giveUp];
    await crashAt('after_model', turns);
    const { outcome, model } = await resume(turns);
    expect(outcome).toMatchObject({ status: 'gave_up', steps: 2 });
    expect(toolMessages(model.requests[0]).map((m) => m.content)).toEqual([NOT_STARTED, NOT_STARTED]);
    expect(look.runs).toBe(0);
    expect(written).toEqual([]);
    const repairs = readJournal(journalPath()).flatMap((r) => (r.type === 'tool_end' && r.repair ? [r.repair] : []));
    expect(repairs).toEqual(['not_started', 'not_started']);
  });

  it('runs a started read-only call again for real', async () => {
    const turns: ScriptTurn[] = [{ tool_calls: [{ name: 'look', arguments: { path: 'a' } }] }, giveUp];
    await crashAt('before_tool', turns);
    expect(look.runs).toBe(0);
    const { model } = await resume(turns);
    expect(look.runs).toBe(1);
    expect(toolMessages(model.requests[0]).map((m) => m.content)).toEqual(['looked at a (run 1)']);
  });

  it('does not repeat a started call with effects: its outcome is unknown', async () => {
    const turns: ScriptTurn[] = [
      { tool_calls: [{ name: 'look', arguments: { path: 'a' } }, { name: 'write', arguments: { text: 'w' } }, { name: 'look', arguments: { path: 'b' } }] },
      giveUp,
    ];
    await crashAt('after_tool:2', turns); // `write` ran, its result was never journaled
    expect(written).toEqual(['w']);
    const { model } = await resume(turns);
    expect(written).toEqual(['w']);
    expect(toolMessages(model.requests[0]).map((m) => m.content)).toEqual(['looked at a (run 1)', OUTCOME_UNKNOWN, NOT_STARTED]);
  });

  it('journals repairs, so a second crash resumes to the same history', async () => {
    const turns: ScriptTurn[] = [{ tool_calls: [{ name: 'write', arguments: { text: 'w' } }] }, { tool_calls: [{ name: 'look', arguments: { path: 'x' } }] }, giveUp];
    await crashAt('after_tool', turns);
    // first resume crashes right after the next model reply
    const crashPoints = createCrashPoints({ GREENFIX_CRASH_AT: 'after_model' }, () => {
      throw new Killed();
    });
    const again = testDeps(tmp, recording(turns), tools, { execute: undefined });
    await expect(resumeAgent(crashing(again, crashPoints), readJournal(journalPath()))).rejects.toThrow(Killed);
    again.journal.close();
    const { outcome, model } = await resume(turns);
    expect(outcome).toMatchObject({ status: 'gave_up', steps: 3 });
    expect(toolMessages(model.requests[0]).map((m) => m.content)).toEqual([OUTCOME_UNKNOWN, NOT_STARTED]);
    expect(written).toEqual(['w']);
    const repairs = readJournal(journalPath()).flatMap((r) => (r.type === 'tool_end' && r.repair ? [r.repair] : []));
    expect(repairs).toEqual(['outcome_unknown', 'not_started']); // each answered once, across two resumes
  });

  it('keeps steps, tokens and the verified tree across a crash', async () => {
    const turns: ScriptTurn[] = [
      { tool_calls: [{ name: 'run_tests', arguments: {} }], usage: { prompt: 10, completion: 1 } },
      { tool_calls: [{ name: 'finish', arguments: { summary: 'lost' } }], usage: { prompt: 20, completion: 2 } },
      { tool_calls: [{ name: 'finish', arguments: { summary: 'fixed' } }], usage: { prompt: 30, completion: 3 } },
    ];
    await crashAt('after_model:2', turns); // the first finish never ran
    const { outcome } = await resume(turns);
    expect(outcome).toMatchObject({ status: 'verified', summary: 'fixed', steps: 3, tokens: { prompt: 60, completion: 6 }, verified: { tree: 'f'.repeat(40) } });
  });

  it('a finished journal returns its outcome without asking the model', async () => {
    const turns: ScriptTurn[] = [giveUp];
    const first = testDeps(tmp, recording(turns), tools, { execute: undefined });
    const done = await runAgent(first, input);
    const never: ChatModel & { requests: ChatRequest[] } = { name: 'never', requests: [], complete: () => Promise.reject(new Error('called')) };
    const { outcome } = await resume([], never);
    expect(outcome).toEqual(done);
    expect(readJournal(journalPath()).filter((r) => r.type === 'finish')).toHaveLength(1);
  });

  it('an accepted finish whose finish record was lost ends the run on resume', async () => {
    const turns: ScriptTurn[] = [{ tool_calls: [{ name: 'run_tests', arguments: {} }] }, { tool_calls: [{ name: 'finish', arguments: { summary: 'ok' } }] }];
    const first = testDeps(tmp, recording(turns), tools, { execute: undefined });
    await runAgent(first, input);
    first.journal.close();
    // drop the finish record, as if the process died just before writing it
    writeFileSync(journalPath(), readFileSync(journalPath(), 'utf8').trimEnd().split('\n').slice(0, -1).join('\n') + '\n');
    const never: ChatModel & { requests: ChatRequest[] } = { name: 'never', requests: [], complete: () => Promise.reject(new Error('called')) };
    const { outcome } = await resume([], never);
    expect(outcome).toMatchObject({ status: 'verified', summary: 'ok' });
  });

  it('a run ended by a model error resumes by asking the model again', async () => {
    const turns: ScriptTurn[] = [{ tool_calls: [{ name: 'look', arguments: { path: 'a' } }] }, giveUp];
    const failing: ChatModel & { requests: ChatRequest[] } = { name: 'down', requests: [], complete: () => Promise.reject(new ModelError('transient', 'HTTP 503')) };
    const first = testDeps(tmp, failing, tools, { execute: undefined });
    expect(await runAgent(first, input)).toMatchObject({ status: 'model_error', error: { kind: 'transient' } });
    first.journal.close();
    const { outcome, model } = await resume(turns);
    expect(outcome).toMatchObject({ status: 'gave_up', steps: 2 });
    expect(model.requests).toHaveLength(2);
  });

  it('runOrResume starts fresh on an empty journal', async () => {
    const deps = testDeps(tmp, recording([giveUp]), tools, { execute: undefined });
    expect(await runOrResume(deps, input, [])).toMatchObject({ status: 'gave_up', steps: 1 });
  });
});
