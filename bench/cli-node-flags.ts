import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** This build's CLI (dist-bench/src/cli/main.js beside the bench's own files). */
export const BENCH_CLI = join(import.meta.dirname, '..', 'src', 'cli', 'main.js');

/**
 * The node flags a built CLI starts with: those of its shebang (`#!/usr/bin/env -S node <flags>`,
 * which is how a user's `greenfix` runs; none for an older build's `#!/usr/bin/env node`). A bench
 * that spawns `node <cli>` passes them too, so it times the process users run; one that runs the
 * app in its own process checks it was started with them (`inProcessFlagsWarning`).
 */
export function cliNodeFlags(cli: string): string[] {
  const first = readFileSync(cli, 'utf8').split('\n', 1)[0] ?? '';
  const words = /^#!\S*env (?:-S )?node(?<flags>( \S+)*)\s*$/.exec(first)?.groups?.flags?.trim();
  if (words === undefined) throw new Error(`${cli}: its first line is not "#!/usr/bin/env [-S] node [flags]": ${first}`);
  return words ? words.split(' ') : [];
}

/** What to say when this process lacks a flag the CLI (default: this build's) starts with (null: none missing). */
export function inProcessFlagsWarning(execArgv: readonly string[], cli = BENCH_CLI): string | null {
  const missing = cliNodeFlags(cli).filter((flag) => !execArgv.includes(flag));
  if (missing.length === 0) return null;
  return `node was started without ${missing.join(' ')}, which greenfix starts with (its shebang, npm start, the Dockerfile): the in-process app is not the process users run; start the bench as npm run bench does`;
}
