import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readProjectFile } from './project-file.js';

/** Config files and the section that says "this project uses pytest". */
const PYTEST_MARKERS: ReadonlyArray<[file: string, section: RegExp | null]> = [
  ['pytest.ini', null],
  ['pyproject.toml', /^\s*\[tool\.pytest/m],
  ['setup.cfg', /^\s*\[tool:pytest\]/m],
  ['tox.ini', /^\s*\[pytest\]/m],
];

const TEST_FILE = /^(test_.*|.*_test)\.py$/;
const SKIP_DIRS = new Set(['node_modules', 'venv', '.venv', 'env', 'site-packages', '__pycache__', 'build', 'dist']);
const MAX_DEPTH = 3;

export function usesPytest(root: string, warn?: (message: string) => void): boolean {
  for (const [file, section] of PYTEST_MARKERS) {
    const text = readProjectFile(root, file, warn);
    if (text !== null && (section === null || section.test(text))) return true;
  }
  return hasTestFile(root, 0);
}

/** pytest's default discovery, shallowly: a test_*.py or *_test.py near the top. */
function hasTestFile(dir: string, depth: number): boolean {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return false;
  }
  if (entries.some((e) => e.isFile() && TEST_FILE.test(e.name))) return true;
  if (depth >= MAX_DEPTH) return false;
  return entries.some(
    (e) => e.isDirectory() && !e.name.startsWith('.') && !SKIP_DIRS.has(e.name) && hasTestFile(join(dir, e.name), depth + 1),
  );
}
