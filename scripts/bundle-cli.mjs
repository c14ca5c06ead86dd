// Bundles the CLI's entry (tsc's OUT/src/cli/main.js) with esbuild, so that `greenfix fix` starts
// from a few dozen files instead of ~500 modules (issue 26: launch → first model request). The
// entry is rewritten in place; its chunks (one per command's dynamic import, shared code split out)
// go to OUT/src/cli/chunks/. greenfix's own code, zod and openai are bundled: every other package
// stays a plain import from node_modules (native addons, and packages that read files beside their
// own code: BullMQ's Lua scripts, pino's transports). The rest of OUT/src stays as tsc wrote it
// (the tests that import or spawn single modules use it). Usage: node scripts/bundle-cli.mjs [OUT]
import { build } from 'esbuild';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const out = resolve(process.argv[2] ?? 'dist');
const cli = join(out, 'src', 'cli');
const BUNDLED = new Set(['zod', 'openai']);
/** Every package import but zod's and openai's stays an import (typescript too: syntax-guard.ts resolves it at run time). */
const packagesStayImports = {
  name: 'packages-stay-imports',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      const name = args.path.split('/').slice(0, args.path.startsWith('@') ? 2 : 1).join('/');
      return BUNDLED.has(name) ? undefined : { path: args.path, external: true };
    });
  },
};

const result = await build({
  entryPoints: [join(cli, 'main.js')],
  outdir: cli,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  plugins: [packagesStayImports],
  sourcemap: 'linked',
  write: false,
  logLevel: 'warning',
});
rmSync(join(cli, 'chunks'), { recursive: true, force: true });
for (const file of result.outputFiles) {
  mkdirSync(dirname(file.path), { recursive: true });
  writeFileSync(file.path, file.contents);
}
