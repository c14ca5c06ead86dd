import { approvingExecutor, DECLINED, NO_TERMINAL } from '../../src/cli/approvals.js';
import type { ExecuteToolCall } from '../../src/agent/types.js';
import type { ToolCall } from '../../src/model/types.js';

/** The dispatcher underneath: records what really ran. */
function recorder(): { ran: ToolCall[]; execute: ExecuteToolCall } {
  const ran: ToolCall[] = [];
  return { ran, execute: async (_tools, call) => (ran.push(call), { ok: true, output: `ran ${call.arguments}` }) };
}
const call = (name: string, args: Record<string, unknown>): ToolCall => ({ id: `c${Math.random()}`, name, arguments: JSON.stringify(args) });
const ctx = {} as Parameters<ExecuteToolCall>[2];

describe('approvals', () => {
  it('e edits the command before it runs, and the model is told what ran', async () => {
    const inner = recorder();
    const answers = ['e', 'npm ls'];
    const questions: string[] = [];
    const exec = approvingExecutor(inner.execute, { ask: new Set(['run']), prompt: async (q) => (questions.push(q), answers.shift() ?? ''), named: () => false, warn: () => undefined });
    const r = await exec([], call('run', { command: 'npm install left-pad' }), ctx);
    expect(questions[0]).toBe('[approve] run: npm install left-pad  (y = yes, n = no, a = always this session, e = edit) ');
    expect(inner.ran.map((c) => JSON.parse(c.arguments))).toEqual([{ command: 'npm ls' }]);
    expect(r.output).toMatch(/^\[the user edited the command to: npm ls\]\nran /);
  });

  it('asks again on an answer it does not know; n declines as an observation', async () => {
    const inner = recorder();
    const answers = ['maybe', 'n'];
    const exec = approvingExecutor(inner.execute, { ask: new Set(['run']), prompt: async () => answers.shift() ?? '', named: () => false, warn: () => undefined });
    expect(await exec([], call('run', { command: 'rm -rf build' }), ctx)).toEqual({ ok: false, output: DECLINED });
    expect(inner.ran).toEqual([]);
  });

  it('does not ask for tools outside the list, nor for writes to files a request named', async () => {
    const inner = recorder();
    const exec = approvingExecutor(inner.execute, { ask: new Set(['run', 'write_file']), prompt: async () => { throw new Error('asked'); }, named: (p) => p === 'notes.md', warn: () => undefined });
    await exec([], call('run_tests', {}), ctx);
    await exec([], call('write_file', { path: 'notes.md', content: 'x' }), ctx);
    expect(inner.ran).toHaveLength(2);
  });

  it('without a terminal: refused, nothing runs, one line naming --yes however many calls', async () => {
    const inner = recorder();
    const lines: string[] = [];
    const exec = approvingExecutor(inner.execute, { ask: new Set(['run', 'edit_file']), prompt: null, named: () => false, warn: (l) => lines.push(l) });
    expect(await exec([], call('run', { command: 'make' }), ctx)).toEqual({ ok: false, output: NO_TERMINAL });
    expect(await exec([], call('edit_file', { path: 'a.c', old: 'x', new: 'y' }), ctx)).toEqual({ ok: false, output: NO_TERMINAL });
    expect(inner.ran).toEqual([]);
    expect(lines).toEqual(['greenfix: approvals are refused without a terminal; start with --yes (or --approve LIST) to allow them']);
  });
});
