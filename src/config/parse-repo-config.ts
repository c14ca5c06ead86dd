import * as z from 'zod';
import { describeIssue, formatPath, kindOf } from './describe-issue.js';
import { didYouMean } from './did-you-mean.js';
import { RepoConfigSchema, type RepoConfig } from './repo-config.js';

export type RepoConfigResult = { ok: true; config: RepoConfig } | { ok: false; problems: string[] };

export const CONFIG_PATH = '.github/greenfix.yml';

/**
 * Validates a parsed `.github/greenfix.yml`. No file (null/undefined) means the defaults. Every
 * problem is listed, as a sentence naming the key, so one comment can show them all.
 */
export function parseRepoConfig(raw: unknown): RepoConfigResult {
  const input = raw ?? {};
  if (typeof input !== 'object' || Array.isArray(input)) {
    return { ok: false, problems: [`\`${CONFIG_PATH}\` must be a mapping of keys (like \`label: agent-fix\`), not ${kindOf(input)}`] };
  }
  const parsed = RepoConfigSchema.safeParse(input);
  if (parsed.success) return { ok: true, config: parsed.data };
  return { ok: false, problems: parsed.error.issues.flatMap((issue) => problemsOf(issue, input)) };
}

function problemsOf(issue: z.core.$ZodIssue, input: unknown): string[] {
  if (issue.code !== 'unrecognized_keys') return [describeIssue(issue, input)];
  const where = issue.path.length > 0 ? `${formatPath(issue.path)}: ` : '';
  const known = knownKeysAt(issue.path);
  return issue.keys.map((key) => {
    const shown = key.replace(/[`\p{Cc}]/gu, '').slice(0, 40);
    const guess = didYouMean(key, known);
    const hint = guess ? `did you mean \`${guess}\`?` : `known keys: ${known.join(', ')}`;
    return `${where}unknown key \`${shown}\` (${hint})`;
  });
}

/** The keys the schema knows at `path`, looking through `.default()`/`.prefault()` wrappers. */
function knownKeysAt(path: readonly PropertyKey[]): string[] {
  let schema: z.core.$ZodType | undefined = RepoConfigSchema;
  for (const key of [...path, undefined]) {
    while (schema && !(schema instanceof z.ZodObject) && 'innerType' in schema._zod.def) {
      schema = (schema._zod.def as { innerType: z.core.$ZodType }).innerType;
    }
    if (!(schema instanceof z.ZodObject)) return [];
    if (key === undefined) return Object.keys(schema.shape);
    schema = (schema.shape as Record<PropertyKey, z.core.$ZodType | undefined>)[key];
  }
  return [];
}
