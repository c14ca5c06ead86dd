import { crashingJournal } from '../../src/agent/crashing-journal.js';
import { readJournal } from '../../src/agent/journal.js';
import { runAgent } from '../../src/agent/loop.js';
import { tempFixture, testDeps, type TempFixture } from './helpers/deps.js';
import { InlineModel, calls } from './helpers/inline-model.js';
import { echoTool, finishTool } from './helpers/test-tools.js';

describe('crashingJournal', () => {
  let tmp: TempFixture;
  beforeEach(() => (tmp = tempFixture()));
  afterEach(() => tmp.cleanup());

  it('reaches after_model, before_tool and after_tool where the loop journals them, in order', async () => {
    const seen: string[] = [];
    const deps = testDeps(tmp, new InlineModel([calls(['echo', { text: 'a' }], ['echo', { text: 'b' }]), calls(['finish', { summary: 's', gave_up: true }])]), [echoTool(), finishTool()]);
    const journal = crashingJournal(deps.journal, { reach: (point) => seen.push(`${point}@${readJournal(deps.journal.path).at(-1)?.type}`) });
    await runAgent({ ...deps, journal }, { task: 't', systemPrompt: 's' });
    // each point names the last record on disk when it is reached: the effect in between is not journaled yet
    expect(seen).toEqual([
      'after_model@assistant',
      'before_tool@tool_start',
      'after_tool@tool_start',
      'before_tool@tool_start',
      'after_tool@tool_start',
      'after_model@assistant',
      'before_tool@tool_start',
      'after_tool@tool_start',
    ]);
    expect(journal.path).toBe(deps.journal.path);
  });

  it('does not count the results a resume writes for repaired calls', async () => {
    const seen: string[] = [];
    const deps = testDeps(tmp, new InlineModel([]), []);
    const journal = crashingJournal(deps.journal, { reach: (point) => seen.push(point) });
    await journal.append({ type: 'tool_end', callId: 'c', name: 'echo', result: { ok: false, output: 'not started' }, repair: 'not_started' });
    expect(seen).toEqual([]);
    expect(readJournal(deps.journal.path).map((r) => r.type)).toEqual(['tool_end']);
  });
});
