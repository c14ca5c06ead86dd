// Bundles the CLI (tsc's OUT/src/cli/run-cli.js) with esbuild, twice (issue 26: launch → first model
// request; docs/architecture.md "The build"):
// - OUT/src/cli/greenfix.cjs: every command but the server's in one CommonJS file, which the entry
//   (main.js → compiled-cli.ts) compiles with V8's code cache. Modules a command imports only when it
//   needs them stay lazy (esbuild's module initialisers), so no command initialises another's code.
//   `serve` and `worker` are not in it: Probot is an ES module only.
// - run-cli.js rewritten in place as ES modules split per command (each dynamic import a chunk in
//   OUT/src/cli/chunks/, shared code in chunks of its own): what `serve` and `worker` load.
// greenfix's own code, zod and openai are bundled: every other package stays an import from
// node_modules (native addons, and packages that read files beside their own code: BullMQ's Lua
// scripts, pino's transports). The rest of OUT/src stays as tsc wrote it (main.js and what it loads
// first; the tests that import or spawn single modules). Usage: node scripts/bundle-cli.mjs [OUT]
import { build } from 'esbuild';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const out = resolve(process.argv[2] ?? 'dist');
const cli = join(out, 'src', 'cli');
const entry = join(cli, 'run-cli.js');
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
/** In the CommonJS bundle, run-cli's import of the server is a module that says where the server loads from. */
const serverElsewhere = {
  name: 'server-elsewhere',
  setup(b) {
    b.onResolve({ filter: /^\.\/serve-command\.js$/ }, (args) => (args.importer === entry ? { path: 'serve-command', namespace: 'server-elsewhere' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'server-elsewhere' }, () => ({
      contents: "throw new Error('greenfix serve and worker load as ES modules (src/cli/compiled-cli.ts), not from the compiled CLI');",
      loader: 'js',
    }));
  },
};

const common = { bundle: true, platform: 'node', target: 'node20', sourcemap: 'linked', logLevel: 'warning' };

const cjs = await build({
  ...common,
  entryPoints: [entry],
  outfile: join(cli, 'greenfix.cjs'),
  format: 'cjs',
  // No import() in the bundle: vm.Script runs one only with an experimental flag. Every dynamic
  // import becomes a lazy require (yaml and the bundled modules are all a require can load).
  supported: { 'dynamic-import': false },
  define: { 'import.meta.url': '__greenfix_module_url', 'import.meta.dirname': '__dirname' },
  banner: { js: 'var __greenfix_module_url = require("node:url").pathToFileURL(__filename).href;' },
  plugins: [serverElsewhere, packagesStayImports],
  metafile: true,
  write: false,
});
const dynamic = Object.values(cjs.metafile.outputs).flatMap((o) => o.imports.filter((i) => i.kind === 'dynamic-import').map((i) => i.path));
if (dynamic.length > 0) throw new Error(`bundle-cli: the CommonJS bundle still imports dynamically: ${dynamic.join(', ')}`);

const esm = await build({
  ...common,
  entryPoints: [entry],
  outdir: cli,
  chunkNames: 'chunks/[name]-[hash]',
  splitting: true,
  format: 'esm',
  plugins: [packagesStayImports],
  write: false,
});
rmSync(join(cli, 'chunks'), { recursive: true, force: true });
for (const file of [...cjs.outputFiles, ...esm.outputFiles]) {
  mkdirSync(dirname(file.path), { recursive: true });
  writeFileSync(file.path, file.contents);
}
