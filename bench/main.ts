import { performance } from 'node:perf_hooks';
import { createSandbox } from '../src/sandbox/create-sandbox.js';
import { startRedisServer } from '../test/support/redis-server.js';
import { generateKeyPairSync } from 'node:crypto';
import { benchAckUnderJobs } from './ack-under-jobs.js';
import { benchCleanRoom } from './clean-room.js';
import { inProcessFlagsWarning } from './cli-node-flags.js';
import { benchContextTokens } from './context-tokens.js';
import { benchDepCacheSetup } from './dep-cache-setup.js';
import { benchFixFirstRequest } from './fix-first-request.js';
import { benchFixPeakRss, benchServeIdleRss } from './peak-rss.js';
import { benchLabelToModel } from './label-to-model.js';
import { benchImageStart } from './image-start.js';
import { benchLoad } from './load.js';
import { benchPrefixCache } from './prefix-cache.js';
import { benchPromptSize } from './prompt-size.js';
import { benchQueueThroughput } from './queue-throughput.js';
import { formatTable, type BenchResults } from './report.js';
import { CLI_CONTEXT } from './scripted-run.js';
import { benchSandboxCommand } from './sandbox-command.js';
import { benchServeBusyRss } from './serve-busy-rss.js';
import { benchStepOverhead } from './step-overhead.js';
import { benchTreeHash } from './tree-hash.js';
import { benchWebhookAck } from './webhook-ack.js';

/** A looser budget beside the CLI's default, for large-context models (--context-tokens 60000). */
const LOOSE_CONTEXT = { maxTokens: 60_000, keepLastToolResults: 6 };

/** `npm run bench`: every figure against a baseline measured in the same run; progress on stderr. */
async function main(): Promise<void> {
  const started = performance.now();
  const log = (message: string) => process.stderr.write(`bench: [${((performance.now() - started) / 1_000).toFixed(1)} s] ${message}\n`);
  const flagsWarning = inProcessFlagsWarning(process.execArgv);
  if (flagsWarning) log(`warning: ${flagsWarning}`);
  const sandbox = await createSandbox({ env: process.env, log: (level, message) => log(`${level}: ${message}`) });
  log('context tokens (60-step session, 3 runs)…');
  const contextTokens = await benchContextTokens({ sandbox, steps: 60, files: 40, budgets: [CLI_CONTEXT, LOOSE_CONTEXT] });
  log('stable prompt prefix (30-step session, before and after, two budgets)…');
  const prefixCache = await benchPrefixCache({ sandbox, steps: 30, files: 40, budgets: [CLI_CONTEXT, LOOSE_CONTEXT] });
  log('tree hash (20,000 files)…');
  const treeHash = await benchTreeHash(20_000, 5);
  log('step overhead (200 steps)…');
  const stepOverhead = await benchStepOverhead({ sandbox, steps: 200 });
  log('sandbox command cost (50 `true` per variant: before per-job resources, + seccomp, a job sandbox)…');
  const sandboxCommand = await benchSandboxCommand({ sandbox, env: process.env, commands: 50 });
  const redis = await startRedisServer();
  let queueThroughput;
  let load;
  try {
    // 1,000 jobs, not 5,000: at ~100 claim+complete/s on a fsync-bound disk the SQLite file alone took a minute.
    log(`queue throughput (1,000 jobs, SQLite file and :memory:, BullMQ on Redis at ${redis.url})…`);
    queueThroughput = await benchQueueThroughput({ jobs: 1_000, redisUrl: redis.url });
    log('load (200 deliveries/s for 10 s to a receiver, SQLite then BullMQ on Redis; Probot throttling off; sender and fake GitHub on worker threads)…');
    load = await benchLoad({ sandbox, redisUrl: redis.url });
  } finally {
    await redis.stop();
  }
  log('webhook acknowledgement (idle, 2 jobs running, 1,000-delivery burst)…');
  const webhookAck = await benchWebhookAck({ sandbox });
  log('webhook ack at 200 deliveries/s for 5 s, none then four jobs running, then four starting, GitHub answering the permission call 300 ms late…');
  const ackUnderJobs = await benchAckUnderJobs({ sandbox, starting: true });
  log('dependency cache: jest from registry.npmjs.org, cold vs warm npm cache vs restored…');
  const depCache = await benchDepCacheSetup({ sandbox, log });
  log('clean-room gate: a dayjs-sized repository (1,100 tracked files) with jest from the registry, cold npm ci vs the gate\'s own overhead…');
  const cleanRoom = await benchCleanRoom({ sandbox, trackedFiles: 1_100, devDependencies: { jest: '29.7.0' }, verify: 'node node_modules/jest/bin/jest.js --version', runs: 5, log });
  log('label → first model request (app, npm project with a lockfile, cold then 3 warm: mirror + dependency cache)…');
  const labelToModel = await benchLabelToModel({ sandbox });
  log('environment image: first pull + unpack of a ~100 MB image, then 10 job starts cached vs the host\'s userland…');
  const imageStart = await benchImageStart({ sandbox, megabytes: 96, starts: 10 });
  log('greenfix fix launch → first model request: the first run of a commit, then 5 with its baseline cached…');
  const fixFirstRequest = await benchFixFirstRequest({ runs: 5, env: process.env });
  log('peak RSS: greenfix fix (10 steps), greenfix serve idle and with one job running…');
  const fixRss = await benchFixPeakRss({ steps: 10, env: process.env });
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs1', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
  const serveRss = await benchServeIdleRss({ env: process.env, privateKey });
  const serveBusyRss = await benchServeBusyRss({ env: process.env });
  const results: BenchResults = { contextTokens, prefixCache, treeHash, stepOverhead, sandboxCommand, promptSize: benchPromptSize('npm test'), queueThroughput, webhookAck, ackUnderJobs, load, depCache, cleanRoom, fixRss, serveRss, labelToModel, serveBusyRss, imageStart, fixFirstRequest };
  process.stdout.write(`${formatTable(results)}\n`);
  process.stdout.write(`${JSON.stringify(results)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
