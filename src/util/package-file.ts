import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A file at the top of greenfix's own package (app.yml, the compiled native helpers), found upwards from this module (src/, dist/src/ or dist-bench/src/). */
export function packageFile(name: string, from = fileURLToPath(import.meta.url)): string {
  for (let dir = dirname(from); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, name))) return join(dir, name);
    if (dirname(dir) === dir) throw new Error(`greenfix's ${name} is missing from its package`);
  }
}
