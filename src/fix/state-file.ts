import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import * as z from 'zod';
import { fromRecord, toRecord, WorkspaceRecordSchema, type WorkspaceRecord, type WorkspaceStateStore } from '../workspace/workspace-state.js';
import { RunStateSchema, type RunState, type RunStateStore } from './run-state.js';

/** Bumped when a section changes shape; a file of another version is refused, never guessed at. */
export const STATE_VERSION = 2;

/**
 * Everything a job (or a local run) must find again after a crash, in one file:
 * `job` what the caller decided before the fix (a job's target; nothing for the CLI),
 * `fix` the fix session's phases (run-state.ts), `workspace` the pinned git dir and set-aside paths.
 */
export interface StateSections<J> {
  job?: J;
  fix?: RunState;
  workspace?: WorkspaceRecord;
}

export type StateProblem = 'unreadable' | 'not_json' | 'wrong_version' | 'invalid';

/** A state file that cannot be used as it is: greenfix stops rather than guess what happened. */
export class StateFileError extends Error {
  override readonly name = 'StateFileError';
  constructor(
    readonly path: string,
    readonly problem: StateProblem,
    detail: string,
  ) {
    super(`${path} is not a usable greenfix state file (${problem}): ${detail}`);
  }
}

/**
 * The one state file of a fix: loaded once, kept in memory, and written whole on every change
 * the one way (temp file, fsync, rename, fsync of the directory), so a crash leaves the old or
 * the new version and never half of one.
 */
export class StateFile<J> {
  private constructor(
    readonly path: string,
    private readonly schema: z.ZodType,
    private data: StateSections<J>,
  ) {}

  /** `job` validates the caller's section; pass `z.never()` when there is none (the CLI). */
  static open<J>(path: string, job: z.ZodType<J>): StateFile<J> {
    const schema = z.strictObject({ version: z.literal(STATE_VERSION), job: job.optional(), fix: RunStateSchema.optional(), workspace: WorkspaceRecordSchema.optional() });
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new StateFile<J>(path, schema, {});
      throw new StateFileError(path, 'unreadable', (error as NodeJS.ErrnoException).code ?? String(error));
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (error) {
      throw new StateFileError(path, 'not_json', (error as Error).message);
    }
    const version = (raw as { version?: unknown } | null)?.version;
    if (version !== STATE_VERSION) throw new StateFileError(path, 'wrong_version', `version ${JSON.stringify(version)}, this greenfix reads ${STATE_VERSION}`);
    const parsed = schema.safeParse(raw);
    if (!parsed.success) throw new StateFileError(path, 'invalid', z.prettifyError(parsed.error));
    const { version: _version, ...sections } = parsed.data as StateSections<J> & { version: number };
    return new StateFile<J>(path, schema, sections);
  }

  get<K extends keyof StateSections<J>>(key: K): StateSections<J>[K] {
    return this.data[key];
  }

  /** Replaces one section and writes the file before returning. */
  set<K extends keyof StateSections<J>>(key: K, value: NonNullable<StateSections<J>[K]>): void {
    const next = { ...this.data, [key]: value };
    const body = this.schema.parse({ version: STATE_VERSION, ...next });
    writeAtomically(this.path, `${JSON.stringify(body, null, 2)}\n`);
    this.data = next;
  }

  /** runFix's section. */
  fixStore(): RunStateStore {
    return { get: () => this.get('fix'), set: (state) => this.set('fix', state) };
  }

  /** The narrow view the workspace layer gets (it may not import fix/). */
  workspaceStore(): WorkspaceStateStore {
    return {
      load: () => {
        const record = this.get('workspace');
        return record ? fromRecord(record) : undefined;
      },
      save: (state) => this.set('workspace', toRecord(state)),
    };
  }
}

/** Writes `text` to `path` so a crash leaves the old or the new file, never half of one. */
export function writeAtomically(path: string, text: string): void {
  const tmp = `${path}.tmp`;
  const fd = openSync(tmp, 'w', 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
  // The rename itself is durable only once the directory entry is on disk.
  const dir = openSync(dirname(path), 'r');
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
}
