import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../../src/model/config-error.js';
import { estimateTokens } from '../../src/model/estimate-tokens.js';
import { ScriptedModel, scriptedModelFromFile } from '../../src/model/scripted-model.js';
import type { ChatMessage } from '../../src/model/types.js';

const user: ChatMessage = { role: 'user', content: 'fix the bug' };

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'greenfix-scripted-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('ScriptedModel', () => {
  const model = new ScriptedModel([
    { content: 'reading', tool_calls: [{ name: 'read_file', arguments: { path: 'a.ts' } }, { name: 'search', arguments: { pattern: 'x' } }], usage: { prompt: 10, completion: 2 } },
    { tool_calls: [{ name: 'edit_file', arguments: '{"path": "a.ts", broken' }] },
  ]);

  it('replays the turn given by the number of assistant messages, with deterministic call ids', async () => {
    const first = await model.complete({ messages: [user], tools: [] });
    expect(first).toEqual({
      message: {
        role: 'assistant',
        content: 'reading',
        toolCalls: [
          { id: 'call_0_0', name: 'read_file', arguments: '{"path":"a.ts"}' },
          { id: 'call_0_1', name: 'search', arguments: '{"pattern":"x"}' },
        ],
      },
      usage: { promptTokens: 10, completionTokens: 2 },
    });
    // Stateless: the same request gives the same turn, as after a crash and resume.
    expect(await model.complete({ messages: [user], tools: [] })).toEqual(first);
  });

  it('keeps raw string arguments verbatim and estimates usage when the script gives none', async () => {
    const messages: ChatMessage[] = [user, first(), { role: 'tool', toolCallId: 'call_0_0', content: 'x' }, { role: 'tool', toolCallId: 'call_0_1', content: 'y' }];
    const second = await model.complete({ messages, tools: [] });
    expect(second.message).toEqual({ role: 'assistant', content: null, toolCalls: [{ id: 'call_1_0', name: 'edit_file', arguments: '{"path": "a.ts", broken' }] });
    expect(second.usage).toEqual({ promptTokens: estimateTokens(messages), completionTokens: estimateTokens([second.message]) });
    expect(second.usage.promptTokens).toBeGreaterThan(0);
  });

  it('gives up with a finish call once the script is exhausted', async () => {
    const messages: ChatMessage[] = [user, first(), { role: 'assistant', content: 'a' }];
    const response = await model.complete({ messages, tools: [] });
    expect(response.message.toolCalls).toEqual([{ id: 'call_2_0', name: 'finish', arguments: JSON.stringify({ summary: 'script exhausted', gave_up: true }) }]);
  });

  it('loads a script file', async () => {
    const path = join(dir, 'script.json');
    writeFileSync(path, JSON.stringify({ turns: [{ content: 'hello' }] }));
    const loaded = scriptedModelFromFile(path);
    expect((await loaded.complete({ messages: [user], tools: [] })).message).toEqual({ role: 'assistant', content: 'hello' });
  });

  it('refuses a bad file with a ConfigError naming the file and every problem', () => {
    const path = join(dir, 'bad.json');
    writeFileSync(path, JSON.stringify({ turns: [{ tool_calls: [{ arguments: 5 }] }, { content: 7 }] }));
    const error = catchError(() => scriptedModelFromFile(path));
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    expect(error.message).toContain(path);
    expect(problems).toMatch(/turns\.0\.tool_calls\.0\.name/);
    expect(problems).toMatch(/turns\.0\.tool_calls\.0\.arguments/);
    expect(problems).toMatch(/turns\.1\.content/);
  });

  it('refuses invalid JSON and a missing file', () => {
    const path = join(dir, 'broken.json');
    writeFileSync(path, '{"turns": [');
    expect(catchError(() => scriptedModelFromFile(path)).message).toMatch(/not valid JSON/);
    expect(catchError(() => scriptedModelFromFile(join(dir, 'missing.json'))).message).toMatch(/ENOENT/);
  });
});

function first(): ChatMessage {
  return { role: 'assistant', content: 'reading', toolCalls: [] };
}

function catchError(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a throw');
}
