import { chmod, lstat, readdir, readlink } from 'node:fs/promises';
import { join, posix, relative } from 'node:path';
import { ImageError } from './image-error.js';

/**
 * The unpacked root, walked once without following anything, as a second look after umoci:
 * a device node, socket or escaping relative symlink (whatever wrote it) refuses the image;
 * setuid and setgid bits are cleared (the sandbox runs with no_new_privs, so they could do nothing
 * there, and nothing of the image keeps a privilege on the host either). Returns its size in bytes.
 */
export async function checkRootfs(root: string): Promise<number> {
  let bytes = 0;
  const walk = async (dir: string): Promise<void> => {
    for (const name of await readdir(dir)) {
      const path = join(dir, name);
      const inside = relative(root, path);
      const stat = await lstat(path);
      bytes += stat.blocks * 512;
      if (stat.isSymbolicLink()) {
        const target = await readlink(path);
        const resolved = posix.normalize(posix.join(posix.dirname(inside), target));
        if (!target.startsWith('/') && (resolved === '..' || resolved.startsWith('../'))) {
          throw new ImageError('unsafe-layer', `the image is refused: /${inside} is a symlink to ${target}, which escapes the image's root`);
        }
      } else if (stat.isBlockDevice() || stat.isCharacterDevice() || stat.isSocket()) {
        throw new ImageError('unsafe-layer', `the image is refused: /${inside} is a device node or socket`);
      } else {
        if (stat.mode & 0o6000) await chmod(path, stat.mode & 0o1777);
        if (stat.isDirectory()) await walk(path);
      }
    }
  };
  await walk(root);
  return bytes;
}
