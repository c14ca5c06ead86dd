import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';

const repo = resolve(import.meta.dirname, '../..');
const docs = ['README.md', ...readdirSync(join(repo, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const sources = ['src', 'test', 'bench'].flatMap((dir) => readdirSync(join(repo, dir), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts')).map((f) => `${dir}/${f}`));
/** Named as what must not exist (the no-barrels rule). */
const FORBIDDEN_NAMES = new Set(['index.ts']);

/** Whether a `file.ts` the docs name exists: a path under src/ (or the repository), or a file name in src/, test/ or bench/. */
function exists(ref: string): boolean {
  if (FORBIDDEN_NAMES.has(ref)) return true;
  if (!ref.includes('/')) return sources.some((f) => basename(f) === ref);
  return existsSync(join(repo, 'src', ref)) || existsSync(join(repo, ref)) || sources.some((f) => f.endsWith(`/${ref}`));
}

describe('the docs name files that exist', () => {
  it('every `….ts` in the README and docs/ is a file of the project (a rename or a merge updates the docs too)', () => {
    const missing = docs.flatMap((doc) => [...readFileSync(join(repo, doc), 'utf8').matchAll(/`([A-Za-z0-9_./-]+\.ts)`/g)].map((m) => m[1]!).filter((ref) => !exists(ref)).map((ref) => `${doc}: ${ref}`));
    expect(missing).toEqual([]);
  });
});
