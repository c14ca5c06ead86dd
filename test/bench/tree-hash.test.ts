import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { benchTreeHash } from '../../bench/tree-hash.js';

describe('benchTreeHash', () => {
  it('measures both hashes on a small repo and cleans up after itself', async () => {
    const leftovers = () => readdirSync(tmpdir()).filter((n) => n.startsWith('gf-bench-tree-'));
    const before = leftovers();
    const result = await benchTreeHash(300, 3);
    expect(result.files).toBe(300);
    expect(result.gitMs).toBeGreaterThan(0);
    expect(result.naiveMs).toBeGreaterThan(0);
    expect(result.ratio).toBeCloseTo(result.naiveMs / result.gitMs, 5);
    expect(leftovers()).toEqual(before);
  });
});
