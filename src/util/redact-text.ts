import { CREDENTIAL_PATTERNS } from './credential-patterns.js';

/**
 * Free text (a model's words, a command's output) with what looks like a credential replaced by
 * `[redacted]`: the known secrets given, and the shapes of common tokens and keys. The logger
 * redacts by key (`app/logger.ts`); text shown to people goes through this as well.
 */
export const REDACTED_TEXT = '[redacted]';

/** `Authorization: Bearer x`, `token=x`, `x-access-token:x@`: the name stays, the value goes. */
const NAMED: readonly RegExp[] = [
  /(\bauthorization:\s*(?:bearer|token|basic)\s+)[^\s'"]+/gi,
  /(\b(?:api[_-]?key|access[_-]?token|secret|password|passwd|token|private[_-]?key)\b["']?\s*[:=]\s*["']?)[^\s'",;]{6,}/gi,
  /(\/\/[^/\s:@]+:)[^/\s@]+(?=@)/g,
];

export function redactText(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 6) out = out.split(secret).join(REDACTED_TEXT);
  for (const { re } of CREDENTIAL_PATTERNS) out = out.replace(re, REDACTED_TEXT);
  for (const pattern of NAMED) out = out.replace(pattern, `$1${REDACTED_TEXT}`);
  return out;
}

/**
 * `value` with every string in it (at any depth, keys aside) passed through `redactText`. A string
 * that is itself JSON (a tool call's arguments) is redacted inside and written again, so it stays
 * JSON: a pattern never eats the escape before a quote.
 */
export function redactStrings<T>(value: T, secrets: readonly string[] = []): T {
  if (typeof value === 'string') {
    const redacted = redactText(value, secrets);
    if (redacted === value) return value;
    const json = /^\s*[[{]/.test(value) ? parseJson(value) : undefined;
    return (json === undefined ? redacted : JSON.stringify(redactStrings(json, secrets))) as T;
  }
  if (Array.isArray(value)) return value.map((v: unknown) => redactStrings(v, secrets)) as T;
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactStrings(v, secrets)])) as T;
  }
  return value;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
