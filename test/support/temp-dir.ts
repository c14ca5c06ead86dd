import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A temp dir the sandbox user can pass through (mkdtemp makes 0700 dirs). Remove with `cleanup`. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(dir, 0o711);
  return dir;
}

/** Removes `dir` and everything under it; a missing dir is fine. */
export function cleanup(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** Private (0700) temp dirs made by one test file; `cleanup` removes them all (call it in afterEach/afterAll). */
export class TempDirs {
  private readonly dirs: string[] = [];

  make(prefix = 'gf-tmp-'): string {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    this.dirs.push(dir);
    return dir;
  }

  cleanup(): void {
    for (const dir of this.dirs.splice(0)) cleanup(dir);
  }
}
