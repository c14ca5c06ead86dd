import { readFileSync } from 'node:fs';
import * as z from 'zod';

/** A test list as SWE-bench writes it (a JSON string holding an array) or as a plain array. */
const TestList = z.preprocess((value) => {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}, z.array(z.string(), { error: 'must be an array of test names (or a JSON string of one)' }));

/**
 * One eval instance in the SWE-bench layout: the base commit, the test change (applied before the
 * model starts), the gold change (never shown to the model: only the gold control and the report
 * read it), the task, and the tests that must go from failing to passing and stay passing.
 */
export const EvalInstanceSchema = z.object({
  // It names a directory and a branch: no leading dot, no "..", no ".lock" ending.
  instance_id: z
    .string()
    .regex(/^[A-Za-z0-9_][A-Za-z0-9._-]{0,119}$/, 'letters, digits, . _ - only, not starting with . or - (it names a directory)')
    .refine((id) => !id.includes('..') && !id.endsWith('.lock') && !id.endsWith('.'), 'no "..", no ending "." or ".lock" (it names a branch)'),
  repo: z.string().min(1),
  base_commit: z.string().regex(/^[0-9a-f]{40}$/, 'a full commit id'),
  patch: z.string(),
  test_patch: z.string(),
  problem_statement: z.string().min(1),
  FAIL_TO_PASS: TestList,
  PASS_TO_PASS: TestList.default([]),
});
export type EvalInstance = z.infer<typeof EvalInstanceSchema>;

/** An instance file that cannot be used: which file, and every problem with the instance it names. */
export class InstanceFileError extends Error {
  override readonly name = 'InstanceFileError';
}

/**
 * Reads instances from a JSON array or JSON Lines (one instance a line), as SWE-bench ships them.
 * Extra fields (version, created_at…) are ignored; a missing or malformed one is an error naming
 * the instance and the field. Ids must be unique: each names a directory and a report row.
 */
export function readInstances(path: string): EvalInstance[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new InstanceFileError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  const raw = parseEntries(path, text);
  const problems: string[] = [];
  const instances: EvalInstance[] = [];
  raw.forEach((entry, i) => {
    const parsed = EvalInstanceSchema.safeParse(entry);
    const name = typeof (entry as { instance_id?: unknown })?.instance_id === 'string' ? (entry as { instance_id: string }).instance_id : `#${i + 1}`;
    if (parsed.success) instances.push(parsed.data);
    else problems.push(...parsed.error.issues.map((issue) => `${name}: ${issue.path.join('.') || '(instance)'}: ${issue.message}`));
  });
  const seen = new Set<string>();
  for (const instance of instances) {
    if (seen.has(instance.instance_id)) problems.push(`${instance.instance_id}: the id appears twice`);
    seen.add(instance.instance_id);
  }
  if (problems.length > 0) throw new InstanceFileError(`${path}:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  if (instances.length === 0) throw new InstanceFileError(`${path}: no instances`);
  return instances;
}

function parseEntries(path: string, text: string): unknown[] {
  const trimmed = text.trim();
  if (trimmed.startsWith('[')) {
    try {
      return JSON.parse(trimmed) as unknown[];
    } catch (error) {
      throw new InstanceFileError(`${path}: not valid JSON: ${(error as Error).message}`);
    }
  }
  return trimmed
    .split('\n')
    .map((line, i) => ({ line: line.trim(), n: i + 1 }))
    .filter(({ line }) => line !== '')
    .map(({ line, n }) => {
      try {
        return JSON.parse(line) as unknown;
      } catch (error) {
        throw new InstanceFileError(`${path}:${n}: not valid JSON: ${(error as Error).message}`);
      }
    });
}

/** Writes instances as JSON Lines (what readInstances reads, and SWE-bench tools too). */
export function instancesJsonl(instances: readonly EvalInstance[]): string {
  return instances.map((i) => JSON.stringify(i)).join('\n') + (instances.length > 0 ? '\n' : '');
}
