import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GitWorkspace } from '../src/workspace/git-workspace.js';
import { openChangeFeed } from '../src/workspace/inotify-feed.js';
import { makeRepo } from '../test/support/make-repo.js';
import { median } from './median.js';

export interface TreeHashBench {
  files: number;
  /** Median GitWorkspace.treeHash() with a warm private index and one file changed, no change feed (git stats every file). */
  gitMs: number;
  /** The same with the inotify change feed (only the changed path is looked at); as gitMs when its helper is not built. */
  feedMs: number;
  /** Median of reading and SHA-1 hashing every non-ignored file. */
  naiveMs: number;
  /** naiveMs / gitMs: how many times faster the private-index hash is. */
  ratio: number;
}

const IGNORED_DIRS = new Set(['.git', '.greenfix', 'node_modules']);

/**
 * Why the tree hash keeps a persistent private index: between two agent steps one file changes,
 * and `git add -A` on an index with stat data re-hashes only that file; with the change feed
 * (inotify-feed.ts) not even the other files are stat-ed, no git process starts (object-batches.ts)
 * and the index is not written (index-memo.ts): the feed's first timed hash starts the running gits. Both hashes are timed on the same tree
 * and must agree. The baseline is what a hash without that bookkeeping must do: read and hash everything.
 */
export async function benchTreeHash(files = 20_000, runs = 5): Promise<TreeHashBench> {
  const dir = mkdtempSync(join(tmpdir(), 'gf-bench-tree-'));
  try {
    const root = join(dir, 'repo');
    makeRepo(root, benchFiles(files), 'bench'); // test git: gc.auto=0, so 20k loose objects start no background gc
    const ws = await GitWorkspace.open({ root, baseCommit: 'HEAD', stateDir: join(dir, 'state') });
    const fed = await GitWorkspace.open({ root, baseCommit: 'HEAD', stateDir: join(dir, 'state-feed'), changeFeed: openChangeFeed });
    try {
      // Warm: the first call hashes what the seeded index has no stat data for (and starts the feed).
      await ws.treeHash();
      await fed.treeHash();
      const gitTimes: number[] = [];
      const feedTimes: number[] = [];
      const naiveTimes: number[] = [];
      for (let run = 0; run < runs; run++) {
        writeFileSync(join(root, filePath(run * 7919 % files)), `changed in run ${run}\n`);
        const hashes = [await timedValue(() => ws.treeHash()), await timedValue(() => fed.treeHash())];
        if (hashes[0]!.value !== hashes[1]!.value) throw new Error(`the change feed's hash ${hashes[1]!.value} is not the full hash ${hashes[0]!.value}`);
        gitTimes.push(hashes[0]!.ms);
        feedTimes.push(hashes[1]!.ms);
        naiveTimes.push(await timed(async () => naiveHash(root)));
      }
      const gitMs = median(gitTimes);
      const naiveMs = median(naiveTimes);
      return { files, gitMs, feedMs: median(feedTimes), naiveMs, ratio: naiveMs / Math.max(gitMs, 0.001) };
    } finally {
      fed.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Small text files spread over two levels of directories, plus ignored dependencies. */
function benchFiles(files: number): Record<string, string> {
  const tree: Record<string, string> = { '.gitignore': 'node_modules/\n', 'node_modules/dep/index.js': 'module.exports = 1;\n' };
  for (let i = 0; i < files; i++) tree[filePath(i)] = `// file ${i}\nexport const value${i} = ${i};\n`;
  return tree;
}

function filePath(i: number): string {
  return join(`pkg${i % 40}`, `mod${Math.floor(i / 40) % 25}`, `file${i}.ts`);
}

/** Git-blob SHA-1 of every file outside ignored dirs; the sum keeps the work observable. */
function naiveHash(dir: string): number {
  let count = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (IGNORED_DIRS.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) count += naiveHash(path);
    else if (entry.isFile()) {
      const content = readFileSync(path);
      createHash('sha1').update(`blob ${content.length}\0`).update(content).digest();
      count += 1;
    }
  }
  return count;
}

async function timed(task: () => Promise<unknown>): Promise<number> {
  return (await timedValue(task)).ms;
}

async function timedValue<T>(task: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = process.hrtime.bigint();
  const value = await task();
  return { value, ms: Number(process.hrtime.bigint() - start) / 1e6 };
}

