import { detectNode } from './detect-node.js';
import { usesPytest } from './detect-python.js';
import { hasProjectFile, readProjectFile } from './project-file.js';
import type { Commands } from './types.js';

export interface CommandOverrides {
  /** A string wins over detection; null says "none" explicitly; undefined means detect. */
  verify?: string | null;
  setup?: string | null;
}

const MAKE_TEST_TARGET = /^test\s*:(?!=)/m;

/**
 * The repository's own test and install commands, guessed from its files. Reads files only, as
 * the host reads every worktree file (project-file.ts); a malformed manifest means "not
 * detected", never an exception, and one that is a symlink, FIFO, device or too large is not
 * read at all (`warn` hears why).
 */
export function detectCommands(root: string, overrides: CommandOverrides = {}, warn?: (message: string) => void): Commands {
  const node = detectNode(root, warn);
  const has = (file: string) => hasProjectFile(root, file);
  const verify =
    node?.verify ??
    (usesPytest(root, warn) ? 'python3 -m pytest -q' : null) ??
    (has('go.mod') ? 'go test ./...' : null) ??
    (has('Cargo.toml') ? 'cargo test' : null) ??
    (hasMakeTest(root, warn) ? 'make test' : null);
  const setup = node?.setup ?? (has('requirements.txt') ? 'python3 -m pip install -r requirements.txt' : null);
  return {
    verify: overrides.verify !== undefined ? overrides.verify : verify,
    setup: overrides.setup !== undefined ? overrides.setup : setup,
  };
}

function hasMakeTest(root: string, warn?: (message: string) => void): boolean {
  return ['GNUmakefile', 'makefile', 'Makefile'].some((f) => MAKE_TEST_TARGET.test(readProjectFile(root, f, warn) ?? ''));
}
