import { parseRetryAfterMs } from '../../src/model/retry-after.js';
import { retryDelayMs } from '../../src/model/retry-policy.js';

const now = Date.parse('2026-01-01T00:00:00Z');
const headers = (h: Record<string, string>) => new Headers(h);

describe('parseRetryAfterMs', () => {
  it('reads seconds, HTTP dates and retry-after-ms (which wins)', () => {
    expect(parseRetryAfterMs(headers({ 'retry-after': '2' }), now)).toBe(2_000);
    expect(parseRetryAfterMs(headers({ 'retry-after': '0.5' }), now)).toBe(500);
    expect(parseRetryAfterMs(headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:30 GMT' }), now)).toBe(30_000);
    expect(parseRetryAfterMs(headers({ 'retry-after': 'Wed, 31 Dec 2025 00:00:00 GMT' }), now)).toBe(0);
    expect(parseRetryAfterMs(headers({ 'retry-after': '2', 'retry-after-ms': '120' }), now)).toBe(120);
  });

  it('ignores absent or unreadable values', () => {
    expect(parseRetryAfterMs(undefined, now)).toBeUndefined();
    expect(parseRetryAfterMs(headers({}), now)).toBeUndefined();
    expect(parseRetryAfterMs(headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(parseRetryAfterMs(headers({ 'retry-after-ms': '-5' }), now)).toBeUndefined();
  });
});

describe('retryDelayMs', () => {
  const policy = { maxRetries: 5, baseDelayMs: 1_000, maxDelayMs: 10_000 };
  it('uses full jitter below a doubling ceiling capped at maxDelayMs', () => {
    expect([1, 2, 3, 4, 5].map((r) => retryDelayMs(policy, r, () => 0.999))).toEqual([999, 1_998, 3_996, 7_992, 9_990]);
    expect(retryDelayMs(policy, 3, () => 0)).toBe(0);
  });
  it('prefers the server hint, capped', () => {
    expect(retryDelayMs(policy, 1, () => 0.5, 4_000)).toBe(4_000);
    expect(retryDelayMs(policy, 1, () => 0.5, 99_000)).toBe(10_000);
  });
});
