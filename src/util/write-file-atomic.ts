import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';

/**
 * Writes `text` to `file` so that a reader sees the old file or the whole new one, never half:
 * a unique temporary file beside it (0600), fsync, rename. Two writers race only to the last rename.
 */
export function writeFileAtomic(file: string, text: string | Uint8Array): void {
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  const fd = openSync(tmp, 'wx', 0o600);
  try {
    writeFileSync(fd, text);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw error;
  }
  closeSync(fd);
  renameSync(tmp, file);
}
