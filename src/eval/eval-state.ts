import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { writeAtomically } from '../fix/state-file.js';
import { EvalRecordSchema, type EvalRecord } from './eval-record.js';

const EvalStateSchema = z.strictObject({
  version: z.literal(1),
  /** The model (or control) this eval runs: a directory holds one eval. */
  model: z.string(),
  records: z.record(z.string(), EvalRecordSchema),
});

/** An eval directory that cannot be continued: another model's eval, or a damaged state file. */
export class EvalStateError extends Error {
  override readonly name = 'EvalStateError';
}

/**
 * The eval's own state file (`eval-state.json`): every finished instance's record, written whole
 * with fsync + rename after each one (as the fix's state file is), so an interrupted eval continues
 * with the instances that have none, and an instance that has one is never run (or paid for) again.
 */
export class EvalState {
  private constructor(
    private readonly path: string,
    private data: z.infer<typeof EvalStateSchema>,
  ) {}

  static open(dir: string, model: string): EvalState {
    const path = join(dir, 'eval-state.json');
    let text: string | null = null;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new EvalStateError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
    if (text === null) return new EvalState(path, { version: 1, model, records: {} });
    let parsed;
    try {
      parsed = EvalStateSchema.safeParse(JSON.parse(text));
    } catch (error) {
      throw new EvalStateError(`${path} is not JSON: ${(error as Error).message}`);
    }
    if (!parsed.success) throw new EvalStateError(`${path} is damaged: ${z.prettifyError(parsed.error)}`);
    if (parsed.data.model !== model) throw new EvalStateError(`${dir} holds an eval of ${parsed.data.model}, not ${model}: give another --out`);
    return new EvalState(path, parsed.data);
  }

  get(id: string): EvalRecord | undefined {
    return this.data.records[id];
  }

  /** Records one finished instance, durably, before the next one is counted as started. */
  record(record: EvalRecord): void {
    const next = { ...this.data, records: { ...this.data.records, [record.instance_id]: record } };
    writeAtomically(this.path, `${JSON.stringify(next)}\n`);
    this.data = next;
  }
}
