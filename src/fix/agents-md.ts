import { existsSync, lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The repository's AGENTS.md, if it is a regular file (a symlink could point anywhere). */
export function readAgentsMd(root: string): string | null {
  const path = join(root, 'AGENTS.md');
  return existsSync(path) && lstatSync(path).isFile() ? readFileSync(path, 'utf8') : null;
}
