import type * as z from 'zod';

/**
 * zod issues as sentences a person fixing a YAML file or an environment can act on:
 * "autofix.max_attempts: must be at most 10". Values are never echoed (some are secrets); the
 * type of a wrong value is (it names no secret and says what went wrong).
 */
export function describeIssue(issue: z.core.$ZodIssue, input: unknown): string {
  const where = issue.path.length > 0 ? `${formatPath(issue.path)}: ` : '';
  return where + rule(issue, input);
}

/** `paths.deny[2]`, the way a person would point at it. */
export function formatPath(path: readonly PropertyKey[]): string {
  return path.map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i === 0 ? '' : '.'}${String(key)}`)).join('');
}

function rule(issue: z.core.$ZodIssue, input: unknown): string {
  switch (issue.code) {
    case 'too_small':
      return bound('at least', issue.origin, Number(issue.minimum), issue.inclusive ?? true);
    case 'too_big':
      return bound('at most', issue.origin, Number(issue.maximum), issue.inclusive ?? true);
    case 'invalid_type': {
      const value = valueAt(input, issue.path);
      const got = value === null || value === undefined ? 'the key has no value' : `not ${kindOf(value)}`;
      return `must be ${EXPECTED[issue.expected] ?? issue.expected} (${got})`;
    }
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => `\`${String(v)}\``).join(', ')}`;
    case 'unrecognized_keys':
      return `unknown ${issue.keys.length === 1 ? 'key' : 'keys'} ${issue.keys.map((k) => `\`${k}\``).join(', ')}`;
    default:
      return issue.message;
  }
}

function bound(word: string, origin: string, limit: number, inclusive: boolean): string {
  const shown = limit.toLocaleString('en-US');
  if (origin === 'string') return limit === 1 && word === 'at least' ? 'must not be empty' : `must be ${word} ${shown} characters long`;
  if (origin === 'array' || origin === 'set') return `must have ${word} ${shown} entries`;
  if (inclusive) return `must be ${word} ${shown}`;
  return `must be ${word === 'at least' ? 'more than' : 'less than'} ${shown}`;
}

const EXPECTED: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'a mapping of keys',
};

/** What a wrong value is, in YAML words. */
export function kindOf(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return 'text';
  if (typeof value === 'boolean') return 'true or false';
  if (typeof value === 'number') return Number.isInteger(value) ? 'a whole number' : 'a number';
  if (typeof value === 'object' && value !== null) return 'a mapping of keys';
  return typeof value;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}
