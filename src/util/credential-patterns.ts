/**
 * The shapes of well-known credentials, each naming its issuer's format (so a match is never a
 * coincidence). One list for both uses: redaction (`redact-text.ts`: journals, the run log, the
 * run page) and the diff's secret scan before publishing (`verify/secret-scan.ts`).
 */
export interface CredentialPattern {
  /** "a GitHub token", …: safe to show anyone. */
  kind: string;
  /** Global. Matches the credential itself (a private key: its whole block, or to the end of the text). */
  re: RegExp;
  /** False: redacted, but too loose a shape to refuse a commit for. Default true. */
  scan?: boolean;
  /** A match that is a documented placeholder, not a credential (the scan lets it through). */
  placeholder?: (match: string) => boolean;
}

export const CREDENTIAL_PATTERNS: readonly CredentialPattern[] = [
  { kind: 'a private key', re: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|$)/g },
  { kind: 'a GitHub token', re: /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}\b/g },
  { kind: 'a GitHub token', re: /\bgithub_pat_[A-Za-z0-9_]{20,}\b/g },
  // GitHub's older installation tokens (v1. + 40 hex), as they appear in clone URLs.
  { kind: 'a GitHub token', re: /\bv1\.[0-9a-f]{40}\b/g },
  // AWS documents AKIAIOSFODNN7EXAMPLE as its example key id; ids ending in EXAMPLE are placeholders.
  { kind: 'an AWS access key id', re: /\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b/g, placeholder: (m) => m.endsWith('EXAMPLE') },
  { kind: 'a JSON Web Token', re: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{16,}/g },
  { kind: 'a Slack token', re: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g },
  { kind: 'a Google API key', re: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { kind: 'an OpenAI API key', re: /\bsk-(?:proj-)?[A-Za-z0-9_-]{32,}/g },
  // Shorter `sk-…` strings (test keys) are redacted; a CSS class could look the same, so no refusal.
  { kind: 'an API key', re: /\bsk-[A-Za-z0-9_-]{16,}\b/g, scan: false },
];
