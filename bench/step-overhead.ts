import { closeSync, fsyncSync, mkdirSync, mkdtempSync, openSync, readFileSync, realpathSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTools, executeToolCall } from '../src/agent/tools/registry.js';
import type { ToolContext } from '../src/agent/tools/types.js';
import { ScriptedModel } from '../src/model/scripted-model.js';
import type { ScriptTurn } from '../src/model/scripted-script.js';
import { sandboxFileOwner } from '../src/sandbox/ownership.js';
import type { Sandbox } from '../src/sandbox/types.js';
import { git } from '../src/workspace/git.js';
import { benchWorktree } from './bench-worktree.js';
import { CLI_CONTEXT, CLI_TOOL_LIMITS, runScripted } from './scripted-run.js';

export interface StepOverheadOptions {
  sandbox: Sandbox;
  steps?: number;
}

export interface StepOverheadBench {
  steps: number;
  /** Wall time per step of the whole loop: model call, context fitting, journal fsyncs, tool. */
  loopMsPerStep: number;
  /** Baseline: the same tool calls through executeToolCall alone. */
  toolMsPerStep: number;
  /** What the harness adds per step. */
  overheadMsPerStep: number;
  /** loopMsPerStep / toolMsPerStep. */
  ratio: number;
  /** Journal records per step, and what writing and fsyncing that many lines costs alone. */
  journalRecordsPerStep: number;
  fsyncMsPerStep: number;
}

const SMALL_FILES = 10;

/**
 * What the loop costs around the tools, with a model that answers instantly: `steps` cheap
 * read_file calls (different files, so the stuck detector stays quiet), then finish.
 */
export async function benchStepOverhead(options: StepOverheadOptions): Promise<StepOverheadBench> {
  const { sandbox, steps = 200 } = options;
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'gf-bench-steps-')));
  try {
    await chmod(dir, 0o711);
    const repo = join(dir, 'repo');
    await makeSmallRepo(repo);
    const workspace = await benchWorktree(repo, join(dir, 'worktree'), join(dir, 'state'));
    const turns = stepScript(steps);
    const calls = turns.flatMap((t) => t.tool_calls ?? []).map((c) => ({ name: c.name, arguments: JSON.stringify(c.arguments) }));
    const tools = createTools();
    const ctx: ToolContext = { workspace, sandbox, verifyCommand: null, verified: null, fileOwner: sandboxFileOwner(), limits: CLI_TOOL_LIMITS };
    for (const call of calls.slice(0, 20)) await executeToolCall(tools, call, ctx); // warm up the JIT for both
    const toolMs = await timed(async () => {
      for (const call of calls) await executeToolCall(tools, call, ctx);
    });
    const runDir = join(dir, 'run');
    mkdirSync(runDir);
    const run = { model: new ScriptedModel(turns), workspace, sandbox, context: CLI_CONTEXT, verifyCommand: 'true', dir: runDir, maxSteps: steps + 1 };
    let outcome: Awaited<ReturnType<typeof runScripted>> | undefined;
    const loopMs = await timed(async () => (outcome = await runScripted(run)));
    if (outcome?.status !== 'gave_up' || outcome.steps !== steps) {
      throw new Error(`step bench ended ${outcome?.status} after ${outcome?.steps} of ${steps} steps: ${outcome?.reason}`);
    }
    const loopMsPerStep = loopMs / steps;
    const toolMsPerStep = toolMs / steps;
    const lines = readFileSync(join(runDir, 'journal.jsonl'), 'utf8').split('\n').filter(Boolean);
    const fsyncMs = await timed(async () => syncedWrites(join(runDir, 'fsync-probe'), lines));
    return {
      steps,
      loopMsPerStep,
      toolMsPerStep,
      overheadMsPerStep: loopMsPerStep - toolMsPerStep,
      ratio: loopMsPerStep / Math.max(toolMsPerStep, 1e-6),
      journalRecordsPerStep: lines.length / steps,
      fsyncMsPerStep: fsyncMs / steps,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** steps - 1 reads cycling over the small files, then an honest give-up that ends the run. */
function stepScript(steps: number): ScriptTurn[] {
  const turns: ScriptTurn[] = [];
  for (let i = 0; i < steps - 1; i++) turns.push({ tool_calls: [{ name: 'read_file', arguments: { path: `notes/note-${i % SMALL_FILES}.md` } }] });
  turns.push({ tool_calls: [{ name: 'finish', arguments: { summary: 'benchmark done', gave_up: true } }] });
  return turns;
}

async function makeSmallRepo(root: string): Promise<void> {
  mkdirSync(join(root, 'notes'), { recursive: true });
  for (let i = 0; i < SMALL_FILES; i++) {
    const lines = Array.from({ length: 20 }, (_, n) => `- note ${i}.${n}: a short line of text`);
    writeFileSync(join(root, 'notes', `note-${i}.md`), `${lines.join('\n')}\n`);
  }
  await git(['init', '-q', root], { cwd: root });
  await git(['add', '-A'], { cwd: root });
  await git(['-c', 'user.name=bench', '-c', 'user.email=bench@example.com', '-c', 'commit.gpgSign=false', 'commit', '-q', '-m', 'notes'], { cwd: root });
  await chmod(root, 0o755);
}

/** The journal's disk cost alone: the same lines, one write and one fsync each, as openJournal does. */
function syncedWrites(path: string, lines: readonly string[]): void {
  const fd = openSync(path, 'a', 0o600);
  try {
    for (const line of lines) {
      writeSync(fd, `${line}\n`);
      fsyncSync(fd);
    }
  } finally {
    closeSync(fd);
  }
}

async function timed(task: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await task();
  return Number(process.hrtime.bigint() - start) / 1e6;
}
