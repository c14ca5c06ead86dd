/**
 * Free text (a model's words, a command's output) with what looks like a credential replaced by
 * `[redacted]`: the known secrets given, and the shapes of common tokens and keys. The logger
 * redacts by key (`app/logger.ts`); text shown to people goes through this as well.
 */
export const REDACTED_TEXT = '[redacted]';

const PATTERNS: readonly RegExp[] = [
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g,
  /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}\b/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}\b/g,
  /\bsk-[A-Za-z0-9_-]{16,}\b/g,
  /\bxox[abprs]-[A-Za-z0-9-]{10,}\b/g,
  /\bAKIA[0-9A-Z]{16}\b/g,
  /\bAIza[0-9A-Za-z_-]{35}\b/g,
  /\bv1\.[0-9a-f]{40}\b/g,
];

/** `Authorization: Bearer x`, `token=x`, `x-access-token:x@`: the name stays, the value goes. */
const NAMED: readonly RegExp[] = [
  /(\bauthorization:\s*(?:bearer|token|basic)\s+)[^\s'"]+/gi,
  /(\b(?:api[_-]?key|access[_-]?token|secret|password|passwd|token|private[_-]?key)\b["']?\s*[:=]\s*["']?)[^\s'",;]{6,}/gi,
  /(\/\/[^/\s:@]+:)[^/\s@]+(?=@)/g,
];

export function redactText(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 6) out = out.split(secret).join(REDACTED_TEXT);
  for (const pattern of PATTERNS) out = out.replace(pattern, REDACTED_TEXT);
  for (const pattern of NAMED) out = out.replace(pattern, `$1${REDACTED_TEXT}`);
  return out;
}
