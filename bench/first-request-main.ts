import { benchFixFirstRequest, fixFirstRequestRows } from './fix-first-request.js';

/**
 * `npm run bench:first-request`: only issue 26's launch figure (bench/fix-first-request.ts), as
 * `npm run bench` prints it, then its JSON. The first argument sets the cached-baseline runs (default 5);
 * the second, another build's `src/cli/main.js` to time alternately against this one (before/after in one run).
 */
async function main(): Promise<void> {
  const runs = Number(process.argv[2] ?? 5);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`bench:first-request: runs must be a positive integer, got ${process.argv[2]}`);
  const before = process.argv[3];
  const result = await benchFixFirstRequest({ runs, env: process.env, ...(before ? { before } : {}) });
  for (const row of fixFirstRequestRows(result)) process.stdout.write(`${row.filter(Boolean).join(' | ')}\n`);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
