import type { CleanRoomBench } from './clean-room.js';
import type { ContextTokensBench } from './context-tokens.js';
import type { DepCacheBench } from './dep-cache-setup.js';
import { depCacheRows } from './dep-cache-rows.js';
import type { ImageStartBench } from './image-start.js';
import { fixFirstRequestRows, type FixFirstRequestBench } from './fix-first-request.js';
import type { LabelToModelBench } from './label-to-model.js';
import type { PeakRssBench, ServeRssBench } from './peak-rss.js';
import type { ServeBusyRssBench } from './serve-busy-rss.js';
import type { LoadBench } from './load.js';
import { loadRows } from './load-rows.js';
import type { PrefixCacheBench } from './prefix-cache.js';
import type { PromptSizeBench } from './prompt-size.js';
import { queueRedisRows, queueThroughputRows, type QueueThroughputBench } from './queue-throughput.js';
import type { SandboxCommandBench } from './sandbox-command.js';
import type { StepOverheadBench } from './step-overhead.js';
import type { TreeHashBench } from './tree-hash.js';
import type { WebhookAckBench } from './webhook-ack.js';
import { CLI_CONTEXT } from './scripted-run.js';
import { ackUnderJobsRows, webhookAckRows } from './webhook-ack-rows.js';
import type { AckUnderJobsBench } from './ack-under-jobs.js';

export interface BenchResults {
  contextTokens: ContextTokensBench;
  treeHash: TreeHashBench;
  stepOverhead: StepOverheadBench;
  sandboxCommand: SandboxCommandBench;
  promptSize: PromptSizeBench;
  queueThroughput: QueueThroughputBench;
  webhookAck: WebhookAckBench;
  /** Issue 26: the ack at 200/s with four jobs running against none, GitHub's permission call slow. */
  ackUnderJobs?: AckUnderJobsBench;
  load: LoadBench;
  /** Issue 23: tokens sent and the stable-prefix share, the request before and after. */
  prefixCache?: PrefixCacheBench;
  /** Issue 15: setup cold vs restored (needs the npm registry), peak RSS of fix and serve. */
  depCache?: DepCacheBench;
  /** Issue 20: the clean-room gate's own overhead against a cold setup (needs the npm registry). */
  cleanRoom?: CleanRoomBench;
  fixRss?: PeakRssBench;
  serveRss?: ServeRssBench;
  labelToModel?: LabelToModelBench;
  serveBusyRss?: ServeBusyRssBench;
  /** Issue 25: an environment image's first pull+unpack, and a job's start with it cached against the host's userland. */
  imageStart?: ImageStartBench;
  /** Issue 26: `greenfix fix` launch → first model request with a cached baseline, against the first run of the commit. */
  fixFirstRequest?: FixFirstRequestBench;
}

type Row = [benchmark: string, measured: string, baseline: string, ratio: string, goal: string];

/** A fixed-width table of every figure, each next to the baseline it was measured against. */
export function formatTable(r: BenchResults): string {
  const { contextTokens: c, treeHash: t, stepOverhead: s, promptSize: p } = r;
  const rows: Row[] = [['benchmark', 'measured', 'baseline (same run)', 'ratio', 'goal']];
  for (const b of c.budgets) {
    const name = `context tokens, ${c.steps} steps, budget ${n(b.maxTokens)}/keep ${b.keepLastToolResults}`;
    // The goal is for the CLI's default budget (or a tighter one); a looser budget sends a 60-step
    // session's first third or more whole, so its ratio is a reference for large-context models.
    const goal = b.maxTokens <= CLI_CONTEXT.maxTokens ? '≤ 0.333' + met(b.ratio <= 1 / 3) : `(reference: looser than the CLI's ${n(CLI_CONTEXT.maxTokens)})`;
    rows.push([name, `${n(b.sentTokens)} tok sent`, `${n(c.fullTokens)} tok full history`, fixed(b.ratio, 3), goal]);
    rows.push(['  largest single request', `${n(b.maxRequestTokens)} tok`, `budget ${n(b.maxTokens)} (full: ${n(c.maxFullRequestTokens)})`, fixed(b.maxRequestTokens / b.maxTokens, 3), '≤ 1' + met(b.maxRequestTokens <= b.maxTokens)]);
  }
  const feedRatio = t.feedMs / t.naiveMs;
  rows.push([`tree hash, ${n(t.files)} files, warm, change feed`, `${fixed(t.feedMs, 1)} ms`, `${fixed(t.naiveMs, 1)} ms read+hash all`, fixed(feedRatio, 3), '≤ 0.1' + met(feedRatio <= 0.1)]);
  rows.push([`  without the feed (every file stat-ed)`, `${fixed(t.gitMs, 1)} ms`, `${fixed(t.naiveMs, 1)} ms read+hash all`, fixed(t.gitMs / t.naiveMs, 3), '']);
  rows.push([`step overhead, ${s.steps} read_file steps`, `${fixed(s.loopMsPerStep, 2)} ms/step`, `${fixed(s.toolMsPerStep, 2)} ms/step tools alone`, `${fixed(s.ratio, 1)}x`, `+${fixed(s.overheadMsPerStep, 2)} ms/step`]);
  rows.push([`  of which journal fsyncs`, `${fixed(s.fsyncMsPerStep, 2)} ms/step`, `${fixed(s.journalRecordsPerStep, 2)} fsynced records/step`, fixed(s.fsyncMsPerStep / s.overheadMsPerStep, 2), '']);
  const sc = r.sandboxCommand;
  rows.push([`sandboxed \`true\`, ${sc.commands} per variant: job sandbox`, `${fixed(sc.fullMsPerCommand, 1)} ms/command`, `${fixed(sc.baselineMsPerCommand, 1)} ms/command before per-job resources`, `${fixed(sc.fullMsPerCommand / sc.baselineMsPerCommand, 2)}x`, `+${fixed(sc.fullMsPerCommand - sc.baselineMsPerCommand, 1)} ms/command`]);
  rows.push(['  of which seccomp', `${fixed(sc.seccompMsPerCommand - sc.baselineMsPerCommand, 1)} ms/command`, 'the rest: uid lease, job cgroup join/empty, /etc view', '', '']);
  const perStep = sc.fullMsPerCommand - sc.unsandboxedMsPerCommand;
  rows.push(['per-step overhead of a sandboxed `true`', `+${fixed(perStep, 1)} ms/command`, `${fixed(sc.unsandboxedMsPerCommand, 1)} ms/command unsandboxed`, `${fixed(sc.fullMsPerCommand / sc.unsandboxedMsPerCommand, 2)}x`, '≤ 15 ms' + met(perStep <= 15)]);
  if (r.prefixCache) rows.push(...prefixCacheRows(r.prefixCache));
  rows.push(['fixed prompt (every request)', `${n(p.totalBytes)} B`, `system ${n(p.systemPromptBytes)} B + tools ${n(p.toolSpecsBytes)} B`, '', '']);
  rows.push(...queueThroughputRows(r.queueThroughput));
  rows.push(...queueRedisRows(r.queueThroughput));
  rows.push(...webhookAckRows(r.webhookAck));
  if (r.ackUnderJobs) rows.push(...ackUnderJobsRows(r.ackUnderJobs));
  rows.push(...loadRows(r.load));
  rows.push(...depCacheRows(r.depCache, r.fixRss, r.serveRss, r.labelToModel, r.serveBusyRss));
  if (r.cleanRoom) rows.push(...cleanRoomRows(r.cleanRoom));
  if (r.imageStart) rows.push(...imageStartRows(r.imageStart));
  if (r.fixFirstRequest) rows.push(...fixFirstRequestRows(r.fixFirstRequest));
  return render(rows);
}

/** A job's start in a cached environment image against the host's userland, and the image's first pull. */
export function imageStartRows(i: ImageStartBench): Row[] {
  const added = i.imageStartMs - i.hostStartMs;
  return [
    [`job start, environment image cached (${i.starts} starts)`, `${fixed(i.imageStartMs, 1)} ms`, `${fixed(i.hostStartMs, 1)} ms host userland`, `${fixed(i.imageStartMs / i.hostStartMs, 2)}x`, `≤ +200 ms${met(added <= 200)} (+${fixed(added, 1)} ms)`],
    [`  first pull + check + unpack, ${n(Math.round(i.imageBytes / 1024 / 1024))} MB image`, `${fixed(i.firstPullMs / 1000, 2)} s`, 'registry on loopback', '', ''],
  ];
}

/** Per budget: the share of request bytes a provider's prefix cache could serve, and the tokens sent, after against before. */
export function prefixCacheRows(p: PrefixCacheBench): Row[] {
  return p.budgets.flatMap((b): Row[] => [
    [`stable prompt prefix, ${p.steps} steps, budget ${n(b.maxTokens)}`, `${fixed(b.after.share, 3)} of request bytes`, `${fixed(b.before.share, 3)} before (messages first, 1 stub at a time)`, fixed(b.after.share / b.before.share, 2), '> before' + met(b.after.share > b.before.share)],
    ['  tokens sent over the session', `${n(b.after.sentTokens)} tok`, `${n(b.before.sentTokens)} tok before`, fixed(b.after.sentTokens / b.before.sentTokens, 3), '≤ 1' + met(b.after.sentTokens <= b.before.sentTokens)],
  ]);
}

/** The gate's own cost per verdict (materialise + restore, no test run, the room staged ahead) against a cold setup, against rooms made at the verdict, and beside the test run. */
export function cleanRoomRows(c: CleanRoomBench): Row[] {
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const ok = c.gateMs <= 1_000 && c.ratio <= 0.1;
  return [
    [`clean-room gate, ${n(c.trackedFiles)} tracked + ${n(c.stateFiles)} setup files`, s(c.gateMs), `${s(c.setupMs)} cold npm ci`, fixed(c.ratio, 3), `≤ 1 s and ≤ 0.1${met(ok)}`],
    ['  materialise the tree / restore the setup state', `${s(c.materialiseMs)} / ${s(c.restoreMs)}`, `${s(c.unstaged.materialiseMs)} / ${s(c.unstaged.restoreMs)} nothing staged`, fixed(c.gateMs / Math.max(1, c.unstaged.gateMs), 3), ''],
    ['  gate with nothing staged (made at the verdict)', s(c.unstaged.gateMs), `${s(c.setupMs)} cold npm ci`, fixed(c.unstaged.gateMs / c.setupMs, 3), ''],
    ['  staging the next room (off the verdict\'s path)', s(c.stageMs), `${s(c.unstaged.gateMs)} gate with nothing staged`, fixed(c.stageMs / Math.max(1, c.unstaged.gateMs), 2), ''],
    ['  the test run in the room (for scale)', s(c.testMs), `${s(c.gateMs)} gate overhead`, fixed(c.gateMs / Math.max(1, c.testMs), 2), ''],
    ['  keeping setup\'s state (once per fix, after setup)', s(c.keepMs), `${s(c.setupMs)} cold npm ci`, fixed(c.keepMs / c.setupMs, 3), ''],
  ];
}

function render(rows: Row[]): string {
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((row) => row[col]!.length)));
  const line = (row: Row) => row.map((cell, col) => cell.padEnd(widths[col]!)).join('  ').trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [line(rows[0]!), rule, ...rows.slice(1).map(line)].join('\n');
}

const n = (value: number) => Math.round(value).toLocaleString('en-US');
const fixed = (value: number, digits: number) => value.toFixed(digits);
const met = (ok: boolean) => (ok ? ' (met)' : ' (NOT met)');
