import { describe, expect, it } from '@jest/globals';
import { createRefusalLimiter } from '../../src/app/refusal-limiter.js';

describe('refusal limiter', () => {
  it('allows `max` refusals per repository in a sliding window, then again as old ones age out', () => {
    let now = 0;
    const limiter = createRefusalLimiter({ max: 3, windowMs: 1000, now: () => now });
    expect([1, 2, 3, 4].map(() => limiter.allow('r1'))).toEqual([true, true, true, false]);
    expect(limiter.allow('r2')).toBe(true); // per repository
    now = 999;
    expect(limiter.allow('r1')).toBe(false);
    now = 1000; // the first three are a full window old
    expect([1, 2, 3, 4].map(() => limiter.allow('r1'))).toEqual([true, true, true, false]);
  });

  it('remembers a bounded number of repositories, forgetting the least recently refused', () => {
    const limiter = createRefusalLimiter({ max: 1, windowMs: 1000, maxRepos: 2, now: () => 0 });
    expect(limiter.allow('a')).toBe(true);
    expect(limiter.allow('b')).toBe(true);
    expect(limiter.allow('a')).toBe(false); // a is now the most recent
    expect(limiter.allow('c')).toBe(true); // b is forgotten
    expect(limiter.allow('a')).toBe(false);
    expect(limiter.allow('b')).toBe(true); // forgotten, so allowed again: the bound costs at most this
  });
});
