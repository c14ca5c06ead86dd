import { createSandbox } from '../src/sandbox/create-sandbox.js';
import { benchAckUnderJobs } from './ack-under-jobs.js';
import { inProcessFlagsWarning } from './cli-node-flags.js';
import { ackUnderJobsRows } from './webhook-ack-rows.js';

/**
 * `npm run bench:ack`: only issue 26's webhook figure (bench/ack-under-jobs.ts), as `npm run
 * bench` prints it, then its JSON. The first argument sets each phase's seconds (default 5), the
 * second how late the fake GitHub answers the config read (ms, default 0), the third the rate
 * (deliveries/s, default 200), a fourth `starting` adds a phase in which four jobs start during the
 * stream: `npm run bench:ack -- 10 300 20 starting`.
 */
async function main(): Promise<void> {
  const flagsWarning = inProcessFlagsWarning(process.execArgv);
  if (flagsWarning) process.stderr.write(`bench: warning: ${flagsWarning}\n`);
  const sandbox = await createSandbox({ env: process.env, log: (level, message) => process.stderr.write(`bench: ${level}: ${message}\n`) });
  const seconds = Number(process.argv[2] ?? 5);
  if (!Number.isInteger(seconds) || seconds < 1) throw new Error(`bench:ack: seconds per phase must be a positive integer, got ${process.argv[2]}`);
  const configDelayMs = Number(process.argv[3] ?? 0);
  if (!Number.isInteger(configDelayMs) || configDelayMs < 0) throw new Error(`bench:ack: the config read's delay must be a non-negative integer (ms), got ${process.argv[3]}`);
  const perSecond = Number(process.argv[4] ?? 200);
  if (!Number.isInteger(perSecond) || perSecond < 1) throw new Error(`bench:ack: deliveries per second must be a positive integer, got ${process.argv[4]}`);
  const starting = process.argv[5] === 'starting';
  if (process.argv[5] !== undefined && !starting) throw new Error(`bench:ack: the fourth argument can only be "starting", got ${process.argv[5]}`);
  const result = await benchAckUnderJobs({ sandbox, seconds, configDelayMs, perSecond, starting });
  for (const row of ackUnderJobsRows(result)) process.stdout.write(`${row.filter(Boolean).join(' | ')}\n`);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
