import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { benchContextTokens } from '../../bench/context-tokens.js';
import type { LoadVariant } from '../../bench/load.js';
import { benchPrefixCache } from '../../bench/prefix-cache.js';
import { benchPromptSize } from '../../bench/prompt-size.js';
import { formatTable } from '../../bench/report.js';
import { sessionScript } from '../../bench/session-script.js';
import { benchSandboxCommand } from '../../bench/sandbox-command.js';
import { benchStepOverhead } from '../../bench/step-overhead.js';
import { benchTreeHash } from '../../bench/tree-hash.js';
import { systemPrompt } from '../../src/agent/prompt.js';
import { createTools, toolSpecs } from '../../src/agent/tools/registry.js';
import { createSandbox } from '../../src/sandbox/create-sandbox.js';
import type { Sandbox } from '../../src/sandbox/types.js';

const leftovers = () => readdirSync(tmpdir()).filter((n) => n.startsWith('gf-bench-context-') || n.startsWith('gf-bench-prefix-') || n.startsWith('gf-bench-steps-'));
const sane = (value: number) => Number.isFinite(value) && value > 0;

/** Each benchmark at a tiny size: the figures are real numbers, never timing thresholds. */
describe('benchmarks', () => {
  let sandbox: Sandbox;
  let before: string[];
  beforeAll(async () => {
    sandbox = await createSandbox({ env: { PATH: process.env.PATH }, log: () => undefined });
  });
  beforeEach(() => (before = leftovers()));
  afterEach(() => expect(leftovers()).toEqual(before));

  it('context tokens: a budgeted session sends fewer tokens than the full history, each request within budget', async () => {
    const r = await benchContextTokens({ sandbox, steps: 10, files: 6, budgets: [{ maxTokens: 8_000, keepLastToolResults: 2 }] });
    expect(r).toMatchObject({ steps: 10, files: 6 });
    expect(sane(r.fullTokens) && sane(r.maxFullRequestTokens)).toBe(true);
    const [b] = r.budgets;
    expect(sane(b!.sentTokens) && sane(b!.maxRequestTokens) && sane(b!.ratio)).toBe(true);
    // Fitting only ever removes: so much follows from the design, whatever the machine.
    expect(b!.sentTokens).toBeLessThan(r.fullTokens);
    expect(b!.maxRequestTokens).toBeLessThanOrEqual(8_000);
    expect(r.maxFullRequestTokens).toBeGreaterThan(8_000);
    expect(b!.ratio).toBeCloseTo(b!.sentTokens / r.fullTokens, 10);
  });

  it('stable prompt prefix: each variant runs the whole session; the chunked stubs send no more and share more', async () => {
    const r = await benchPrefixCache({ sandbox, steps: 10, files: 6, budgets: [{ maxTokens: 8_000, keepLastToolResults: 2 }] });
    expect(r).toMatchObject({ steps: 10, files: 6 });
    const [b] = r.budgets;
    for (const f of [b!.before, b!.after]) {
      expect(sane(f.sentTokens) && sane(f.requestBytes) && sane(f.stablePrefixBytes)).toBe(true);
      expect(f.share).toBeCloseTo(f.stablePrefixBytes / f.requestBytes, 10);
      expect(f.share).toBeLessThan(1);
    }
    // Stubbing in chunks only ever stubs more, and the tool schemas now lead every request.
    expect(b!.after.sentTokens).toBeLessThanOrEqual(b!.before.sentTokens);
    expect(b!.after.share).toBeGreaterThan(b!.before.share);
  });

  it('sandbox command cost: every variant runs real commands, leaving nothing behind', async () => {
    const r = await benchSandboxCommand({ sandbox, env: { PATH: process.env.PATH }, commands: 10 });
    expect(r.commands).toBe(10);
    expect(sane(r.fullMsPerCommand) && sane(r.baselineMsPerCommand) && sane(r.seccompMsPerCommand)).toBe(true);
    expect(readdirSync(tmpdir()).filter((n) => n.startsWith('gf-bench-sandbox-'))).toEqual([]);
  });

  it('step overhead: loop and bare-tool times per step are positive and consistent', async () => {
    const r = await benchStepOverhead({ sandbox, steps: 10 });
    expect(r.steps).toBe(10);
    expect(sane(r.loopMsPerStep) && sane(r.toolMsPerStep) && sane(r.ratio)).toBe(true);
    expect(r.overheadMsPerStep).toBeCloseTo(r.loopMsPerStep - r.toolMsPerStep, 10);
    // start, then per step: the reply, tool_start, tool_end; the finish step adds the outcome.
    expect(r.journalRecordsPerStep).toBeGreaterThanOrEqual(3);
    expect(sane(r.fsyncMsPerStep)).toBe(true);
  });

  it('tree hash: both hashes of a small tree are timed', async () => {
    const r = await benchTreeHash(200, 3);
    expect(r.files).toBe(200);
    expect(sane(r.gitMs) && sane(r.naiveMs) && sane(r.ratio)).toBe(true);
  });

  it('prompt size: counts the bytes of the system prompt and of the tool schemas', () => {
    const r = benchPromptSize('npm test');
    expect(r.systemPromptBytes).toBe(Buffer.byteLength(systemPrompt(null, 'npm test')));
    expect(r.toolSpecsBytes).toBe(Buffer.byteLength(JSON.stringify(toolSpecs(createTools()))));
    expect(r.totalBytes).toBe(r.systemPromptBytes + r.toolSpecsBytes);
  });
});

describe('sessionScript', () => {
  it('explores, then edits, tests and finishes in exactly the requested steps', () => {
    const turns = sessionScript(['src/a.ts', 'src/b.ts'], 12);
    expect(turns).toHaveLength(12);
    expect(turns.slice(-3).map((t) => t.tool_calls?.[0]?.name)).toEqual(['edit_file', 'run_tests', 'finish']);
    expect(() => sessionScript(['src/a.ts'], 3)).toThrow(RangeError);
  });
});

const stats = (p50: number, p99: number) => ({ count: 150, failed: 0, late: 0, p50, p99, max: p99 });
const loadVariant = (queue: LoadVariant['queue'], p50: number, p99: number): LoadVariant => ({
  queue,
  sent: 2_000,
  distinct: 1_800,
  spanMs: 9_995,
  lagMaxMs: 1.5,
  drainMs: 10_000,
  ack: { ...stats(p50, p99), count: 2_000 },
  statuses: { '200': 2_000 },
  jobs: 1_800,
  lost: 0,
  doubled: 0,
  mismatched: 0,
});

describe('formatTable', () => {
  it('shows every figure with its baseline and whether the goal is met', () => {
    const table = formatTable({
      contextTokens: { steps: 60, files: 40, fullTokens: 900, maxFullRequestTokens: 50, budgets: [{ maxTokens: 40, keepLastToolResults: 6, sentTokens: 300, maxRequestTokens: 40, ratio: 1 / 3 }, { maxTokens: 60_000, keepLastToolResults: 6, sentTokens: 600, maxRequestTokens: 50, ratio: 2 / 3 }] },
      treeHash: { files: 20_000, gitMs: 10, feedMs: 5, naiveMs: 100, ratio: 10 },
      stepOverhead: { steps: 200, loopMsPerStep: 2, toolMsPerStep: 1, overheadMsPerStep: 1, ratio: 2, journalRecordsPerStep: 3, fsyncMsPerStep: 0.5 },
      sandboxCommand: { commands: 50, fullMsPerCommand: 30, baselineMsPerCommand: 20, seccompMsPerCommand: 21, unsandboxedMsPerCommand: 12 },
      promptSize: { systemPromptBytes: 800, toolSpecsBytes: 3_000, totalBytes: 3_800 },
      prefixCache: { steps: 30, files: 40, budgets: [{ maxTokens: 20_000, before: { sentTokens: 1_000, requestBytes: 4_000, stablePrefixBytes: 1_000, share: 0.25 }, after: { sentTokens: 900, requestBytes: 3_600, stablePrefixBytes: 1_800, share: 0.5 } }] },
      queueThroughput: { jobs: 5_000, file: { enqueuePerSec: 1_000, claimCompletePerSec: 500 }, memory: { enqueuePerSec: 4_000, claimCompletePerSec: 1_000 }, redis: { enqueuePerSec: 2_000, claimCompletePerSec: 250 }, burst: { deliveries: 1_000, distinct: 900, created: 900, stored: 900 } },
      webhookAck: {
        idle: stats(20, 50),
        enqueueIdle: stats(40, 80),
        busy: stats(50, 90),
        busyRunningMin: 2,
        busyJobsEnded: 0,
        throttled: stats(1_000, 1_010),
        burst: { deliveries: 1_000, distinct: 900, connections: 100, answered200: 1_000, jobs: 900, lost: 0, doubled: 0, wallMs: 10_000, latency: stats(1_200, 2_400) },
      },
      load: { perSecond: 200, seconds: 10, throttling: 'off', sqlite: loadVariant('SQLite', 4, 20), redis: loadVariant('Redis', 5, 30) },
    });
    expect(table).toMatch(/context tokens, 60 steps, budget 40\/keep 6 +300 tok sent +900 tok full history +0\.333 +≤ 0\.333 \(met\)/);
    // A budget looser than the CLI's is a reference: no goal, so no "NOT met" for what it cannot reach.
    expect(table).toMatch(/context tokens, 60 steps, budget 60,000\/keep 6 +600 tok sent +900 tok full history +0\.667 +\(reference: looser than the CLI's 20,000\)/);
    expect(table).toMatch(/tree hash, 20,000 files, warm, change feed +5\.0 ms +100\.0 ms read\+hash all +0\.050 +≤ 0\.1 \(met\)/);
    expect(table).toMatch(/without the feed \(every file stat-ed\) +10\.0 ms +100\.0 ms read\+hash all +0\.100/);
    expect(table).toMatch(/step overhead, 200 read_file steps +2\.00 ms\/step +1\.00 ms\/step tools alone +2\.0x/);
    expect(table).toMatch(/of which journal fsyncs +0\.50 ms\/step +3\.00 fsynced records\/step +0\.50/);
    expect(table).toMatch(/sandboxed `true`, 50 per variant: job sandbox +30\.0 ms\/command +20\.0 ms\/command before per-job resources +1\.50x +\+10\.0 ms\/command/);
    expect(table).toMatch(/per-step overhead of a sandboxed `true` +\+18\.0 ms\/command +12\.0 ms\/command unsandboxed +2\.50x +≤ 15 ms \(NOT met\)/);
    expect(table).toMatch(/of which seccomp +1\.0 ms\/command/);
    expect(table).toMatch(/stable prompt prefix, 30 steps, budget 20,000 +0\.500 of request bytes +0\.250 before \(messages first, 1 stub at a time\) +2\.00 +> before \(met\)/);
    expect(table).toMatch(/tokens sent over the session +900 tok +1,000 tok before +0\.900 +≤ 1 \(met\)/);
    expect(table).toMatch(/fixed prompt \(every request\) +3,800 B +system 800 B \+ tools 3,000 B/);
    expect(table).toMatch(/queue enqueue, 5000 jobs \(SQLite file\) +1,000 jobs\/s +4,000 jobs\/s :memory: +0\.25/);
    expect(table).toMatch(/webhook ack B: 150 enqueueing, 2 jobs running +p50 50\.0 ms \/ p99 90\.0 ms +A: p50 20\.0 ms \/ p99 50\.0 ms +2\.50 \/ 1\.80 +p99 < 100 ms \(met\)/);
    expect(table).toMatch(/Probot default throttling +p50 1\.00 s \/ p99 1\.01 s .* p99 < 1 s \(NOT met\)/);
    expect(table).toMatch(/delivery burst: 1000, 10% dup ids, 100 conns +900 jobs, 0 lost, 0 doubled +900 distinct deliveries +1\.000 += 1 \(met\)/);
    expect(table).toMatch(/burst wall time \/ rate +10\.00 s, 100 deliveries\/s/);
    expect(table).toMatch(/queue enqueue, 5000 jobs \(BullMQ on Redis\) +2,000 jobs\/s +1,000 jobs\/s SQLite file +2\.00/);
    expect(table).toMatch(/queue claim\+complete, 5000 jobs \(BullMQ on Redis\) +250 jobs\/s +500 jobs\/s SQLite file +0\.50/);
    expect(table).toMatch(/load: 200\/s × 10 s, receiver only, throttling off, SQLite ack +p50 4\.0 ms \/ p99 20\.0 ms \/ max 20\.0 ms +\(baseline\) +p99 < 100 ms \(met\)/);
    expect(table).toMatch(/throttling off, BullMQ on Redis ack +p50 5\.0 ms \/ p99 30\.0 ms \/ max 30\.0 ms +SQLite: p50 4\.0 ms \/ p99 20\.0 ms +1\.25 \/ 1\.50 +p99 < 100 ms \(met\)/);
    expect(table).toMatch(/Redis: jobs +1800 jobs, 0 lost, 0 doubled +1800 distinct deliveries +1\.000 += 1 \(met\)/);
    expect(table).toMatch(/Redis: answered +2000 × 200 +2000 sent at 200\.0\/s +all 200 \(met\)/);
    expect(table).toMatch(/Redis: served +200\.0 deliveries\/s \(last answer at 10\.00 s\) +200\/s offered +1\.00/);
  });
});
