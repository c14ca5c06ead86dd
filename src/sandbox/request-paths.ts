import { realpathSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { isWithin } from './app-dirs.js';
import { SandboxRequestError } from './errors.js';

/**
 * The directory a command starts in: `cwd` (relative to the workspace, or absolute) must resolve,
 * symlinks followed, inside the workspace.
 */
export function resolveCwd(workspace: string, cwd: string | undefined): string {
  if (!isAbsolute(workspace)) {
    throw new SandboxRequestError('cwd-outside-workspace', `workspace ${workspace} is not an absolute path`);
  }
  const wanted = resolve(workspace, cwd ?? '.');
  let inside = false;
  try {
    inside = isWithin(realpathSync(wanted), realpathSync(workspace));
  } catch {
    inside = false;
  }
  if (!inside || !isWithin(wanted, workspace)) {
    throw new SandboxRequestError('cwd-outside-workspace', `cwd ${cwd} is not an existing directory inside the workspace ${workspace}`);
  }
  return wanted;
}
