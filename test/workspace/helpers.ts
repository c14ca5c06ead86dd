import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { git } from '../../src/workspace/git.js';
import { runProcess } from '../../src/util/run-process.js';

/** Temp dirs made by one test file; `cleanup` removes them all (call it in afterEach). */
export class TempDirs {
  private readonly dirs: string[] = [];
  make(prefix = 'gf-ws-'): string {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    this.dirs.push(dir);
    return dir;
  }
  cleanup(): void {
    for (const dir of this.dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  }
}

export const IDENTITY = ['-c', 'user.name=test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgSign=false'];

export function writeFiles(root: string, files: Record<string, string | Buffer>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
}

/** A repo with one commit holding `files`. */
export async function makeRepo(dir: string, files: Record<string, string | Buffer>): Promise<string> {
  await git(['init', '-q', '-b', 'main', dir], { cwd: dir });
  writeFiles(dir, files);
  await git(['add', '-A'], { cwd: dir });
  await git([...IDENTITY, 'commit', '-q', '-m', 'base'], { cwd: dir });
  return dir;
}

export async function rev(cwd: string, spec: string): Promise<string> {
  return (await git(['rev-parse', '--verify', spec], { cwd })).trim();
}

/** The tree `git add -A && git commit` makes in a full copy of `root` (the original untouched). */
export async function treeOfCommitInCopy(root: string, scratch: string): Promise<string> {
  const copy = join(scratch, 'copy');
  rmSync(copy, { recursive: true, force: true });
  // cp -a, not fs.cpSync: node cannot name files whose names are not UTF-8.
  const cp = await runProcess({ argv: ['cp', '-a', root, copy], cwd: scratch, env: { PATH: '/usr/bin:/bin' }, timeoutMs: 60_000 });
  if (cp.exitCode !== 0) throw new Error(`cp -a failed: ${cp.stderr}`);
  await git(['add', '-A'], { cwd: copy });
  await git([...IDENTITY, 'commit', '-q', '--allow-empty', '-m', 'copy'], { cwd: copy });
  return rev(copy, 'HEAD^{tree}');
}
