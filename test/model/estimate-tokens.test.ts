import { estimateTextTokens, estimateTokens } from '../../src/model/estimate-tokens.js';

describe('estimateTokens', () => {
  it('is about chars/4 plus a small per-message overhead, tool calls and tools included', () => {
    expect(estimateTextTokens('x'.repeat(400))).toBe(100);
    const base = estimateTokens([{ role: 'user', content: 'x'.repeat(400) }]);
    expect(base).toBe(104);
    const withCall = estimateTokens([{ role: 'assistant', content: null, toolCalls: [{ id: 'c1', name: 'run', arguments: 'y'.repeat(395) }] }]);
    expect(withCall).toBe(104);
    const tool = { name: 'run', description: 'd', parameters: { type: 'object' } };
    expect(estimateTokens([], [tool])).toBe(Math.ceil(JSON.stringify(tool).length / 4));
  });

  it('is deterministic and grows with the conversation', () => {
    const a = estimateTokens([{ role: 'system', content: 'abc' }, { role: 'tool', toolCallId: 'c', content: 'out' }]);
    expect(estimateTokens([{ role: 'system', content: 'abc' }, { role: 'tool', toolCallId: 'c', content: 'out' }])).toBe(a);
    expect(estimateTokens([{ role: 'system', content: 'abc' }, { role: 'tool', toolCallId: 'c', content: 'out'.repeat(100) }])).toBeGreaterThan(a);
  });
});
