import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { readRegularText, RegularFileError } from '../util/regular-file.js';

/** Manifests are small; anything bigger is not one (and is not read whole into memory). */
export const PROJECT_FILE_MAX_BYTES = 1024 * 1024;

/**
 * A project file (package.json, pyproject.toml, Makefile…) of the worktree, read as the host
 * reads every worktree file: only a regular file, no symlink, FIFO or device, at most
 * PROJECT_FILE_MAX_BYTES, never blocking. Anything else counts as absent; `warn` hears why.
 */
export function readProjectFile(root: string, rel: string, warn?: (message: string) => void): string | null {
  try {
    return readRegularText(root, rel, PROJECT_FILE_MAX_BYTES);
  } catch (error) {
    if (!(error instanceof RegularFileError)) throw error;
    warn?.(`${rel} ignored for command detection: ${error.message}`);
    return null;
  }
}

/** Whether `rel` exists in the worktree, as itself (a symlink is not followed to decide). */
export function hasProjectFile(root: string, rel: string): boolean {
  try {
    return lstatSync(join(root, rel)).isFile();
  } catch {
    return false;
  }
}
