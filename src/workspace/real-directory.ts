import { lstatSync } from 'node:fs';
import { join } from 'node:path';

/** Why `rel` under `root` is not a plain directory reached through plain directories; null when it is. */
export function notRealDirectory(root: string, rel: string): string | null {
  let at = root;
  for (const part of rel.split('/')) {
    at = join(at, part);
    let st;
    try {
      st = lstatSync(at);
    } catch {
      return `${rel} does not exist`;
    }
    if (!st.isDirectory()) return `${rel} is reached through ${at.slice(root.length + 1)}, which is not a directory (a symlink or file): not followed`;
  }
  return null;
}
