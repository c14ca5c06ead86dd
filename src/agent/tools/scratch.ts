import { closeSync, mkdirSync, openSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Claims the next free `<prefix>-<n>.log` in the scratch dir (`wx`: two calls never share one),
 * so every command's full output stays readable afterwards with read_file.
 */
export function claimScratchFile(scratchDir: string, prefix: string): string {
  mkdirSync(scratchDir, { recursive: true });
  let n = readdirSync(scratchDir).filter((f) => f.startsWith(`${prefix}-`)).length + 1;
  for (;;) {
    const file = join(scratchDir, `${prefix}-${n}.log`);
    try {
      closeSync(openSync(file, 'wx', 0o600));
      return file;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      n++;
    }
  }
}

/** How the model names a scratch file: relative to the root, for read_file. */
export const relativeToRoot = (root: string, file: string): string => relative(root, file).split('\\').join('/');
