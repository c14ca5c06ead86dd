import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import * as z from 'zod';
import { SECRET_NAME } from './repo-config.js';

/**
 * GREENFIX_SETUP_SECRETS_FILE: the operator's named setup secrets (YAML or JSON), e.g.
 *
 *     secrets:
 *       NPM_TOKEN:
 *         env: COMPANY_NPM_TOKEN        # or file: /run/secrets/npm-token, or value: "…"
 *         repos: [acme/web, acme/api]   # optional: only these repositories (owner/name)
 *         installations: [12345]        # optional: only these installations
 *
 * Without `repos` and `installations` a secret is granted to every repository that asks for it.
 * A repository asks with `setup: { secrets: [NPM_TOKEN] }` in `.github/greenfix.yml`.
 */
const EntrySchema = z
  .object({
    value: z.string().min(1).optional(),
    file: z.string().min(1).optional(),
    env: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/).optional(),
    repos: z.array(z.string().regex(/^[^/\s]+\/[^/\s]+$/, 'a repository is owner/name')).optional(),
    installations: z.array(z.number().int().positive()).optional(),
  })
  .strict()
  .refine((e) => [e.value, e.file, e.env].filter((x) => x !== undefined).length === 1, { message: 'give exactly one of value, file or env' });

const FileSchema = z.object({ secrets: z.record(z.string(), EntrySchema) }).strict();

/** One named secret, its value read, and where it may go (null: anywhere). */
export interface SetupSecretGrant {
  name: string;
  value: string;
  repos: string[] | null;
  installations: number[] | null;
}

/** A bad secrets file, or a secret whose file or variable is missing: greenfix does not start. */
export class SetupSecretsConfigError extends Error {
  override readonly name = 'SetupSecretsConfigError';
}

/** Reads GREENFIX_SETUP_SECRETS_FILE (unset: no secrets) and every value it names, once, at startup. */
export function readSetupSecrets(env: Record<string, string | undefined>): SetupSecretGrant[] {
  const path = env.GREENFIX_SETUP_SECRETS_FILE?.trim();
  if (!path) return [];
  const fail = (why: string) => new SetupSecretsConfigError(`GREENFIX_SETUP_SECRETS_FILE ${path}: ${why}`);
  let raw: unknown;
  try {
    raw = parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw fail(error instanceof Error ? error.message.split('\n')[0] ?? 'unreadable' : 'unreadable');
  }
  const parsed = FileSchema.safeParse(raw);
  if (!parsed.success) throw fail(parsed.error.issues.map((i) => `${i.path.join('.') || '(top)'}: ${i.message}`).join('; '));
  const badName = Object.keys(parsed.data.secrets).find((name) => !SECRET_NAME.test(name));
  if (badName !== undefined) throw fail(`${JSON.stringify(badName.slice(0, 64))}: a secret name is upper-case letters, digits and "_" (like NPM_TOKEN)`);
  return Object.entries(parsed.data.secrets).map(([name, entry]) => ({
    name,
    value: secretValue(name, entry, env, fail),
    repos: entry.repos ?? null,
    installations: entry.installations ?? null,
  }));
}

function secretValue(name: string, entry: z.infer<typeof EntrySchema>, env: Record<string, string | undefined>, fail: (why: string) => Error): string {
  let value: string | undefined = entry.value;
  if (entry.env !== undefined) value = env[entry.env];
  if (entry.file !== undefined) {
    try {
      value = readFileSync(entry.file, 'utf8').trim();
    } catch {
      throw fail(`${name}: its file ${entry.file} cannot be read`);
    }
  }
  if (!value) throw fail(`${name}: ${entry.env !== undefined ? `the variable ${entry.env} is unset or empty` : 'the value is empty'}`);
  if (value.includes('\0') || value.length < 8) throw fail(`${name}: the value must be at least 8 characters, without NUL`);
  return value;
}

/** What a repository asked for, split into the secrets it gets (name → value) and the names it was not granted. */
export function grantSetupSecrets(grants: readonly SetupSecretGrant[], requested: readonly string[], where: { repo: string; installation: number }): { granted: Record<string, string>; denied: string[] } {
  const granted: Record<string, string> = {};
  const denied: string[] = [];
  for (const name of new Set(requested)) {
    const grant = grants.find((g) => g.name === name);
    const repoOk = grant && (grant.repos === null || grant.repos.some((r) => r.toLowerCase() === where.repo.toLowerCase()));
    const installationOk = grant && (grant.installations === null || grant.installations.includes(where.installation));
    if (grant && repoOk && installationOk) granted[name] = grant.value;
    else denied.push(name);
  }
  return { granted, denied };
}
