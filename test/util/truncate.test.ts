import { truncate } from '../../src/util/truncate.js';

describe('truncate', () => {
  it('keeps a text that fits as it is', () => {
    expect(truncate('short', 5)).toBe('short');
    expect(truncate('', 0)).toBe('');
  });

  it('cuts a longer one to exactly the limit, the last character an ellipsis', () => {
    const cut = truncate('a'.repeat(100), 72);
    expect(cut).toHaveLength(72);
    expect(cut).toBe(`${'a'.repeat(71)}…`);
    expect(truncate('abc', 1)).toBe('…');
  });

  it('never splits a surrogate pair', () => {
    const cut = truncate(`ab😀cd`, 4); // the emoji is two UTF-16 units at 2–3
    expect(cut).toBe('ab…');
    expect(Buffer.from(cut, 'utf8').toString('utf8')).toBe(cut); // a lone surrogate would not survive UTF-8
  });
});
