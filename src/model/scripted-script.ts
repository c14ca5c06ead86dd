import { readFileSync } from 'node:fs';
import * as z from 'zod';
import { ConfigError } from './config-error.js';

/** One assistant turn of a script. `arguments` as a string is sent verbatim (to test invalid JSON). */
export const ScriptTurn = z.strictObject({
  content: z.string().nullable().optional(),
  tool_calls: z
    .array(z.strictObject({ name: z.string().min(1), arguments: z.union([z.record(z.string(), z.unknown()), z.string()]) }))
    .optional(),
  usage: z
    .strictObject({ prompt: z.number().int().nonnegative(), completion: z.number().int().nonnegative(), cached: z.number().int().nonnegative().optional() })
    .optional(),
});
export type ScriptTurn = z.infer<typeof ScriptTurn>;

export const ScriptFile = z.strictObject({ turns: z.array(ScriptTurn) });

/** Parses a script file; a missing file, bad JSON or wrong shape is a ConfigError naming the file and every problem. */
export function readScriptFile(path: string): ScriptTurn[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(`model script ${path}`, [`cannot read the file: ${(err as NodeJS.ErrnoException).code ?? String(err)}`]);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`model script ${path}`, [`not valid JSON: ${(err as Error).message}`]);
  }
  const parsed = ScriptFile.safeParse(json);
  if (!parsed.success) {
    throw new ConfigError(`model script ${path}`, parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`));
  }
  return parsed.data.turns;
}
