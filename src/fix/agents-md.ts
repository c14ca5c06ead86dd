import { readRegularText, RegularFileError } from '../util/regular-file.js';

/** More than the prompt ever shows (it clips to AGENTS_MD_MAX_CHARS), less than a flood. */
export const AGENTS_MD_MAX_BYTES = 256 * 1024;

/**
 * The repository's AGENTS.md, read as the host reads every worktree file (readRegularText): a
 * symlink, FIFO, device or oversized file is not read, never followed, never waited on; `warn`
 * hears why, and the run goes on without it.
 */
export function readAgentsMd(root: string, warn: (message: string) => void = () => undefined): string | null {
  try {
    return readRegularText(root, 'AGENTS.md', AGENTS_MD_MAX_BYTES);
  } catch (error) {
    if (!(error instanceof RegularFileError)) throw error;
    warn(`AGENTS.md ignored: ${error.message}`);
    return null;
  }
}
