import * as fs from 'node:fs';
import { redactStrings } from '../util/redact-text.js';
import { journalRecordSchema, type JournalEntry, type JournalRecord } from './journal-schema.js';


/** Where the loop writes what it is about to do and what it did, so a killed run can resume. */
export interface Journal {
  /** Resolves once the record is on disk (fsynced): nothing the record announces happens before. */
  append(entry: JournalEntry): Promise<void>;
}

export interface FileJournal extends Journal {
  readonly path: string;
  close(): void;
}

/** A line before the last one does not parse: the file was edited or damaged, not torn by a crash. */
export class JournalCorruptError extends Error {
  override readonly name = 'JournalCorruptError';
  constructor(
    readonly path: string,
    readonly line: number,
    options?: { cause?: unknown },
  ) {
    super(`journal ${path}: line ${line} is not a valid record`, options);
  }
}

/**
 * Opens (or creates) an append-only JSONL journal. Each record is written with one write (in
 * order, at once) and fsynced before `append`'s promise resolves, so what the journal says
 * happened survives a kill -9 or power loss; the fsync runs on libuv's thread pool, not on the
 * event loop that answers webhooks (up to 28 ms a record on a loaded disk). A torn last line left
 * by an earlier crash is cut off first, so new records start on a line of their own. What it stores is redacted as it is written, by the rules the run log
 * renders with (`util/redact-text.ts`: token and key shapes, `secrets`): command output that
 * printed a token never reaches the disk.
 */
export function openJournal(path: string, now: () => number = Date.now, secrets: readonly string[] = []): FileJournal {
  const fd = fs.openSync(path, fs.constants.O_RDWR | fs.constants.O_CREAT | fs.constants.O_APPEND, 0o600);
  cutTornTail(fd);
  let open = true;
  return {
    path,
    append(entry) {
      const record = journalRecordSchema.parse(redactStrings({ ...entry, at: now() }, secrets));
      fs.writeSync(fd, `${JSON.stringify(record)}\n`);
      return new Promise<void>((resolve, reject) => fs.fsync(fd, (error) => (error ? reject(error) : resolve())));
    },
    close() {
      if (open) fs.closeSync(fd);
      open = false;
    },
  };
}

function cutTornTail(fd: number): void {
  const text = fs.readFileSync(fd, 'utf8');
  if (text === '' || text.endsWith('\n')) return;
  fs.ftruncateSync(fd, Buffer.byteLength(text.slice(0, text.lastIndexOf('\n') + 1)));
  fs.fsyncSync(fd);
}

/** All complete records; a partial last line (the process died mid-write) is ignored. */
export function readJournal(path: string): JournalRecord[] {
  if (!fs.existsSync(path)) return [];
  const lines = fs.readFileSync(path, 'utf8').split('\n');
  lines.pop(); // after the last newline: '' or a record torn by a crash
  return lines.map((line, i) => {
    try {
      return journalRecordSchema.parse(JSON.parse(line));
    } catch (cause) {
      throw new JournalCorruptError(path, i + 1, { cause });
    }
  });
}
