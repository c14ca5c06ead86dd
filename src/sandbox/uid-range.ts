import { SandboxConfigError } from './errors.js';

/** A block of uids reserved for sandboxes: one per concurrent job, owning nothing else. */
export interface UidRange {
  first: number;
  last: number;
}

/**
 * Default GREENFIX_SANDBOX_UIDS: 1000 uids just below 2^31, far from login users (1000–60000),
 * nobody (65534) and the subordinate-id blocks adduser hands out (100000 + 65536·n), and below
 * 2^31 so tools that keep uids in a signed int still work.
 */
export const DEFAULT_UID_RANGE: UidRange = { first: 2_147_000_000, last: 2_147_000_999 };
const MAX_UID = 2 ** 31 - 2;
const MAX_SIZE = 65_536;

/** GREENFIX_SANDBOX_UIDS=FIRST-LAST (inclusive); unset or blank → the default. */
export function parseUidRange(value: string | undefined): UidRange {
  const text = value?.trim() ?? '';
  if (text === '') return DEFAULT_UID_RANGE;
  const fail = (why: string) => new SandboxConfigError('bad-uid-range', `GREENFIX_SANDBOX_UIDS=${text}: ${why}`);
  const match = /^(\d+)-(\d+)$/.exec(text);
  if (!match) throw fail('must be FIRST-LAST, two whole numbers such as 2147000000-2147000999');
  const first = Number(match[1]);
  const last = Number(match[2]);
  if (first > last) throw fail('FIRST must not be above LAST');
  if (first < 1000) throw fail('must not include system uids (below 1000, root among them)');
  if (last > MAX_UID) throw fail(`LAST must be at most ${MAX_UID}`);
  if (first <= 65_534 && last >= 65_534) throw fail('must not include nobody (65534)');
  if (last - first + 1 > MAX_SIZE) throw fail(`at most ${MAX_SIZE} uids`);
  return { first, last };
}

export function uidRangeText(range: UidRange): string {
  return `${range.first}-${range.last}`;
}
