import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { detectNode } from './detect-node.js';
import { readText, usesPytest } from './detect-python.js';
import type { Commands } from './types.js';

export interface CommandOverrides {
  /** A string wins over detection; null says "none" explicitly; undefined means detect. */
  verify?: string | null;
  setup?: string | null;
}

const MAKE_TEST_TARGET = /^test\s*:(?!=)/m;

/**
 * The repository's own test and install commands, guessed from its files. Reads files only; a
 * malformed manifest means "not detected", never an exception.
 */
export function detectCommands(root: string, overrides: CommandOverrides = {}): Commands {
  const node = detectNode(root);
  const has = (file: string) => existsSync(join(root, file));
  const verify =
    node?.verify ??
    (usesPytest(root) ? 'python3 -m pytest -q' : null) ??
    (has('go.mod') ? 'go test ./...' : null) ??
    (has('Cargo.toml') ? 'cargo test' : null) ??
    (hasMakeTest(root) ? 'make test' : null);
  const setup = node?.setup ?? (has('requirements.txt') ? 'python3 -m pip install -r requirements.txt' : null);
  return {
    verify: overrides.verify !== undefined ? overrides.verify : verify,
    setup: overrides.setup !== undefined ? overrides.setup : setup,
  };
}

function hasMakeTest(root: string): boolean {
  return ['GNUmakefile', 'makefile', 'Makefile'].some((f) => MAKE_TEST_TARGET.test(readText(join(root, f)) ?? ''));
}
