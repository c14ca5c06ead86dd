import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { benchContextTokens } from '../../bench/context-tokens.js';
import { benchPromptSize } from '../../bench/prompt-size.js';
import { formatTable } from '../../bench/report.js';
import { sessionScript } from '../../bench/session-script.js';
import { benchStepOverhead } from '../../bench/step-overhead.js';
import { benchTreeHash } from '../../bench/tree-hash.js';
import { systemPrompt } from '../../src/agent/prompt.js';
import { createTools, toolSpecs } from '../../src/agent/tools/registry.js';
import { createSandbox } from '../../src/sandbox/create-sandbox.js';
import type { Sandbox } from '../../src/sandbox/types.js';

const leftovers = () => readdirSync(tmpdir()).filter((n) => n.startsWith('gf-bench-context-') || n.startsWith('gf-bench-steps-'));
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

describe('formatTable', () => {
  it('shows every figure with its baseline and whether the goal is met', () => {
    const table = formatTable({
      contextTokens: { steps: 60, files: 40, fullTokens: 900, maxFullRequestTokens: 50, budgets: [{ maxTokens: 40, keepLastToolResults: 6, sentTokens: 300, maxRequestTokens: 40, ratio: 1 / 3 }] },
      treeHash: { files: 20_000, gitMs: 10, naiveMs: 100, ratio: 10 },
      stepOverhead: { steps: 200, loopMsPerStep: 2, toolMsPerStep: 1, overheadMsPerStep: 1, ratio: 2, journalRecordsPerStep: 3, fsyncMsPerStep: 0.5 },
      promptSize: { systemPromptBytes: 800, toolSpecsBytes: 3_000, totalBytes: 3_800 },
    });
    expect(table).toMatch(/context tokens, 60 steps, budget 40\/keep 6 +300 tok sent +900 tok full history +0\.333 +≤ 0\.333 \(met\)/);
    expect(table).toMatch(/tree hash, 20,000 files, warm +10\.0 ms +100\.0 ms read\+hash all +0\.100 +≤ 0\.2 \(met\)/);
    expect(table).toMatch(/step overhead, 200 read_file steps +2\.00 ms\/step +1\.00 ms\/step tools alone +2\.0x/);
    expect(table).toMatch(/of which journal fsyncs +0\.50 ms\/step +3\.00 fsynced records\/step +0\.50/);
    expect(table).toMatch(/fixed prompt \(every request\) +3,800 B +system 800 B \+ tools 3,000 B/);
  });
});
