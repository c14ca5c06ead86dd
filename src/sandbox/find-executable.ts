import { accessSync, constants, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';

/** Resolves `name` against a PATH string the way a shell would; null when not found. */
export function findExecutable(name: string, pathValue: string | undefined): string | null {
  for (const dir of (pathValue ?? '').split(':')) {
    if (!dir || !isAbsolute(dir)) continue;
    const candidate = join(dir, name);
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      /* not here */
    }
  }
  return null;
}
