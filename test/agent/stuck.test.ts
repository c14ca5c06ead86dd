import { initialStuckState, normaliseArgs, observeAction, type StuckState, type StuckVerdict } from '../../src/agent/stuck.js';
import type { ToolResult } from '../../src/agent/tools/types.js';

type Action = [name: string, args: string, result: ToolResult];
const ok = (output: string): ToolResult => ({ ok: true, output });
const fail = (output: string): ToolResult => ({ ok: false, output });

function feed(actions: Action[], state: StuckState = initialStuckState): { state: StuckState; verdicts: StuckVerdict['kind'][] } {
  const verdicts: StuckVerdict['kind'][] = [];
  for (const [name, args, result] of actions) {
    const next = observeAction(state, { id: 'x', name, arguments: args }, result);
    state = next.state;
    verdicts.push(next.verdict.kind);
  }
  return { state, verdicts };
}

describe('stuck detector', () => {
  it('the same call with the same result 3 times in a row warns; 3 more after the warning is stuck', () => {
    const same: Action = ['read_file', '{"path":"a.ts"}', ok('1 │ x')];
    expect(feed(Array(6).fill(same)).verdicts).toEqual(['ok', 'ok', 'warn', 'ok', 'ok', 'stuck']);
  });

  it('argument key order and whitespace do not make a call different', () => {
    expect(normaliseArgs('{"b":1, "a":{"d":2,"c":3}}')).toBe(normaliseArgs('{"a":{"c":3,"d":2},"b":1}'));
    const r = ok('same');
    expect(feed([['search', '{"a":1,"b":2}', r], ['search', '{"b":2,"a":1}', r], ['search', '{ "a": 1, "b": 2 }', r]]).verdicts.at(-1)).toBe('warn');
  });

  it('a different result is progress', () => {
    expect(feed([1, 2, 3, 4].map((n) => ['run', '{"command":"ls"}', ok(`out ${n}`)] as Action)).verdicts).toEqual(['ok', 'ok', 'ok', 'ok']);
  });

  it('run_tests failing with the same output 3 times, edits in between, is stuck; timings do not count', () => {
    const actions: Action[] = [];
    for (let i = 0; i < 3; i++) {
      actions.push(['edit_file', JSON.stringify({ path: 'a.ts', old: `v${i}`, new: `v${i + 1}` }), ok('edited')]);
      actions.push(['run_tests', '{}', fail(`FAIL a.test.ts: expected 1, got 2\nTime: ${i}.5 s`)]);
    }
    expect(feed(actions).verdicts).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'warn']);
  });

  it('a passing run_tests resets the failure count', () => {
    const bad: Action = ['run_tests', '{}', fail('FAIL x')];
    const edit = (n: number): Action => ['edit_file', `{"n":${n}}`, ok('edited')];
    const good: Action = ['run_tests', '{}', { ok: true, output: 'pass' }];
    expect(feed([bad, edit(1), bad, edit(2), good, edit(3), bad, edit(4), bad]).verdicts.every((v) => v === 'ok')).toBe(true);
  });

  it('two actions alternating A,B,A,B,A,B warn on the 6th', () => {
    const a: Action = ['edit_file', '{"old":"x","new":"y"}', ok('edited')];
    const b: Action = ['edit_file', '{"old":"y","new":"x"}', ok('edited')];
    expect(feed([a, b, a, b, a, b]).verdicts).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'warn']);
    expect(feed([a, b, a, b, a, a]).verdicts.at(-1)).toBe('ok');
  });

  it('is a pure function of the actions: replaying them gives the same state', () => {
    const actions: Action[] = Array.from({ length: 9 }, (_, i) => ['run', `{"i":${i % 2}}`, ok('o')]);
    expect(feed(actions).state).toEqual(feed(actions).state);
    expect(feed(actions).state.warned).toBe(true);
  });
});
