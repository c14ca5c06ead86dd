import { existsSync, realpathSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { appDirReason, overlaps } from './app-dirs.js';
import { SandboxConfigError } from './errors.js';
import type { FileOwner } from './ownership.js';
import { firstUnreachableDir, unreachableText } from './unreachable-dir.js';
import { uidRangeText, type UidRange } from './uid-range.js';

/** GREENFIX_SANDBOX_RO_PATHS: colon-separated absolute paths; empty parts are ignored. */
export function parseReadOnlyPaths(value: string | undefined): string[] {
  return (value ?? '').split(':').filter((part) => part.trim() !== '');
}

/**
 * Extra read-only paths (a tool installed outside /usr, say) are checked once, at start-up:
 * absolute, existing, reachable by the sandbox uid, and neither inside nor around greenfix's own
 * directories, so configuration cannot expose the app to the code it runs.
 */
export function validateReadOnlyPaths(paths: readonly string[], appDirs: readonly string[], runAs: FileOwner | null, jobUids: UidRange | null = null): string[] {
  return paths.map((path) => {
    const fail = (why: string) => new SandboxConfigError('bad-ro-path', `GREENFIX_SANDBOX_RO_PATHS: ${path} ${why}`);
    if (!isAbsolute(path)) throw fail('is not absolute');
    if (!existsSync(path)) throw fail('does not exist');
    const real = realpathSync(path);
    const app = appDirs.find((dir) => overlaps(real, dir) || overlaps(path, dir));
    if (app) throw fail(`overlaps greenfix's own directory ${app}, which the sandbox must not see: ${appDirReason(app)}`);
    const blocked = runAs ? firstUnreachableDir(path, runAs) : null;
    if (runAs && blocked) {
      const who = jobUids ? `jobs run as uids ${uidRangeText(jobUids)} from GREENFIX_SANDBOX_UIDS, one-off commands as ${runAs.uid}` : `commands run as uid ${runAs.uid}`;
      throw fail(`is not reachable from the sandbox (${who}): ${unreachableText(blocked)}, which lets none of them pass — chmod o+x ${blocked.dir} lets them pass without listing it`);
    }
    return path;
  });
}
