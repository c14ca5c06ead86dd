import { existsSync, realpathSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { overlaps } from './app-dirs.js';
import { SandboxConfigError } from './errors.js';
import { isReachableBy, type FileOwner } from './ownership.js';

/** GREENFIX_SANDBOX_RO_PATHS: colon-separated absolute paths; empty parts are ignored. */
export function parseReadOnlyPaths(value: string | undefined): string[] {
  return (value ?? '').split(':').filter((part) => part.trim() !== '');
}

/**
 * Extra read-only paths (a tool installed outside /usr, say) are checked once, at start-up:
 * absolute, existing, reachable by the sandbox uid, and neither inside nor around greenfix's own
 * directories, so configuration cannot expose the app to the code it runs.
 */
export function validateReadOnlyPaths(paths: readonly string[], appDirs: readonly string[], runAs: FileOwner | null): string[] {
  return paths.map((path) => {
    const fail = (why: string) => new SandboxConfigError('bad-ro-path', `GREENFIX_SANDBOX_RO_PATHS: ${path} ${why}`);
    if (!isAbsolute(path)) throw fail('is not absolute');
    if (!existsSync(path)) throw fail('does not exist');
    const real = realpathSync(path);
    const app = appDirs.find((dir) => overlaps(real, dir) || overlaps(path, dir));
    if (app) throw fail(`overlaps greenfix's own directory ${app}, which the sandbox must not see`);
    if (runAs && !isReachableBy(path, runAs)) {
      throw fail(`is not reachable by the sandbox uid ${runAs.uid} (a parent directory lacks o+x)`);
    }
    return path;
  });
}
