import { closeSync, fstatSync, lstatSync, readdirSync, writeSync } from 'node:fs';
import { join, relative } from 'node:path';
import { openRegularFile, readFd } from '../util/regular-file.js';

/** Larger files are not searched (an installed package's bundle); a token lands in small config files. */
const MAX_BYTES = 16 * 1024 * 1024;

/**
 * After a setup that had secrets: every regular file under `root` (`.git` aside) whose inode
 * changed since `since` (ctime, which no command can set back) and that holds a secret's value gets
 * it replaced by `${NAME}` — a `.npmrc` with `_authToken=<token>` becomes `_authToken=${NPM_TOKEN}`,
 * which npm reads from the environment (where the agent has nothing). Symlinks are not followed.
 * Runs before the dependency cache stores and before the clean room's setup state is kept, so
 * neither ever holds a value. Returns the files changed, relative to `root`.
 */
export function scrubSecrets(root: string, secrets: Readonly<Record<string, string>>, since: number): string[] {
  const values = Object.entries(secrets).map(([name, value]) => ({ name, value: Buffer.from(value) }));
  if (values.length === 0) return [];
  const scrubbed: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (dir === root && entry.name === '.git') continue;
        walk(path);
      } else if (entry.isFile()) {
        const st = lstatSync(path);
        if (st.ctimeMs + 1 < since || st.size > MAX_BYTES || st.size === 0) continue;
        if (scrubFile(path, values)) scrubbed.push(relative(root, path));
      }
    }
  };
  walk(root);
  return scrubbed;
}

function scrubFile(path: string, values: readonly { name: string; value: Buffer }[]): boolean {
  const fd = openRegularFile(path, 'read');
  let content: Buffer;
  try {
    content = readFd(fd, fstatSync(fd).size);
  } finally {
    closeSync(fd);
  }
  if (!values.some((v) => content.includes(v.value))) return false;
  let text = content.toString('latin1');
  for (const { name, value } of values) text = text.split(value.toString('latin1')).join(`\${${name}}`);
  const out = openRegularFile(path, 'write');
  try {
    writeSync(out, Buffer.from(text, 'latin1'));
  } finally {
    closeSync(out);
  }
  return true;
}
