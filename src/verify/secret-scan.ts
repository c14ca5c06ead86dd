import { CREDENTIAL_PATTERNS } from '../util/credential-patterns.js';

/** One line a change adds: where it is (1-based line of the new file) and its text. */
export interface AddedLine {
  path: string;
  line: number;
  text: string;
}

/** A credential-shaped addition: where, and what it looks like. Never the value itself. */
export interface SecretFinding {
  path: string;
  line: number;
  /** "an AWS access key id", "a GitHub token", …: safe to show anyone. */
  kind: string;
}

/**
 * A value assigned to a secret-ish name (`API_KEY=…`, `"password": "…"`, `clientSecret = '…'`):
 * flagged when the value looks random (long, letters and digits, high entropy), not when it is a
 * reference (`process.env.X`, `${X}`) or a word.
 */
const ASSIGNMENT = /([A-Za-z0-9_.-]*(?:secret|token|passw(?:or)?d|pwd|api[_-]?key|access[_-]?key|private[_-]?key|credentials?|auth)[A-Za-z0-9_.-]*)["']?\s*(?::=|=>|:|=)\s*(["'`]?)([A-Za-z0-9+/_\-.~=]{16,})\2/gi;

/** Bits per character above which a value reads as random rather than as words or a pattern. */
const MIN_ENTROPY = 3.5;

/** Shannon entropy of `s`, bits per character. */
export function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

function looksRandom(value: string): boolean {
  if (!/[0-9]/.test(value) || !/[A-Za-z]/.test(value)) return false;
  if (/^(?:x+|X+|\*+|0+)$/.test(value) || /example|placeholder|changeme|dummy|your[_-]/i.test(value)) return false;
  return entropy(value) >= MIN_ENTROPY;
}

/** What on one line looks like a credential (the kinds, each once). */
export function secretKinds(text: string): string[] {
  const kinds = new Set<string>();
  for (const p of CREDENTIAL_PATTERNS) {
    if (p.scan === false) continue;
    for (const m of text.matchAll(p.re)) {
      if (!p.placeholder?.(m[0])) kinds.add(p.kind);
    }
  }
  if (kinds.size === 0) {
    for (const m of text.matchAll(ASSIGNMENT)) {
      if (looksRandom(m[3] ?? '')) kinds.add(`a random-looking value assigned to "${m[1]}"`);
    }
  }
  return [...kinds];
}

/** The credential-shaped lines among `lines`, in order: at most one finding per line. */
export function scanAddedLines(lines: readonly AddedLine[]): SecretFinding[] {
  const found: SecretFinding[] = [];
  for (const l of lines) {
    const kinds = secretKinds(l.text);
    if (kinds.length > 0) found.push({ path: l.path, line: l.line, kind: kinds.join(', ') });
  }
  return found;
}

/** How many findings are named before "and N more". */
const NAMED = 10;

/** The findings for people and the model: file, line and kind, never the value. */
export function describeSecrets(found: readonly SecretFinding[]): string {
  const named = found.slice(0, NAMED).map((f) => `${f.path} line ${f.line}: ${f.kind}`);
  const more = found.length > NAMED ? [`… and ${found.length - NAMED} more`] : [];
  return [...named, ...more].join('\n');
}
