import { loadavg } from 'node:os';
import { benchTreeHash } from './tree-hash.js';

/**
 * `npm run bench:tree`: only issue 26's tree-hash figure (bench/tree-hash.ts), with and without
 * the change feed against hashing everything, in one run; then its JSON. Arguments: files
 * (default 20,000) and runs (default 5): `npm run bench:tree -- 20000 9`.
 */
async function main(): Promise<void> {
  const files = Number(process.argv[2] ?? 20_000);
  const runs = Number(process.argv[3] ?? 5);
  if (!Number.isInteger(files) || files < 1 || !Number.isInteger(runs) || runs < 1) throw new Error('bench:tree: files and runs must be positive integers');
  const load = loadavg()[0]!.toFixed(2);
  const r = await benchTreeHash(files, runs);
  const share = (ms: number) => (ms / r.naiveMs).toFixed(3);
  process.stdout.write(`tree hash, ${files} files, load ${load}: change feed ${r.feedMs.toFixed(1)} ms (${share(r.feedMs)}), every file stat-ed ${r.gitMs.toFixed(1)} ms (${share(r.gitMs)}), read+hash all ${r.naiveMs.toFixed(1)} ms\n`);
  process.stdout.write(`${JSON.stringify(r)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
