import type { LatencyStats } from './deliveries.js';
import type { LoadBench, LoadVariant } from './load.js';

type Row = [benchmark: string, measured: string, baseline: string, ratio: string, goal: string];

/**
 * Rows in bench/report.ts's table shape: SQLite is the baseline of the same run, Redis is set
 * against it; the latency goal is DESIGN §1's "aim < 100 ms".
 */
export function loadRows(r: LoadBench): Row[] {
  const head = `load: ${r.perSecond}/s × ${r.seconds} s, receiver only, throttling ${r.throttling}`;
  const { sqlite: s, redis: d } = r;
  return [
    [`${head}, SQLite ack`, triple(s.ack), '(baseline)', '', goal(s)],
    [`${head}, BullMQ on Redis ack`, triple(d.ack), `SQLite: p50 ${ms(s.ack.p50)} / p99 ${ms(s.ack.p99)}`, `${(d.ack.p50 / s.ack.p50).toFixed(2)} / ${(d.ack.p99 / s.ack.p99).toFixed(2)}`, goal(d)],
    ...[s, d].flatMap((v) => details(v, r.perSecond)),
  ];
}

function details(v: LoadVariant, perSecond: number): Row[] {
  const exact = v.jobs === v.distinct && v.lost === 0 && v.doubled === 0 && v.mismatched === 0;
  const answers = Object.entries(v.statuses).map(([status, n]) => `${n} × ${status === '0' ? 'no answer' : status}`).join(', ');
  const offered = v.spanMs > 0 ? ((v.sent - 1) * 1_000) / v.spanMs : Number.NaN;
  return [
    [`  ${v.queue}: jobs`, `${v.jobs} jobs, ${v.lost} lost, ${v.doubled} doubled`, `${v.distinct} distinct deliveries`, (v.jobs / v.distinct).toFixed(3), `= 1${met(exact)}`],
    [`  ${v.queue}: answered`, answers, `${v.sent} sent at ${offered.toFixed(1)}/s`, '', `all 200${met(v.statuses['200'] === v.sent)}`],
    [`  ${v.queue}: served`, `${((v.sent * 1_000) / v.drainMs).toFixed(1)} deliveries/s (last answer at ${ms(v.drainMs)})`, `${perSecond}/s offered`, ((v.sent * 1_000) / v.drainMs / perSecond).toFixed(2), ''],
    [`  ${v.queue}: sender kept pace`, `max lag ${ms(v.lagMaxMs)}`, `one send every ${ms(1_000 / perSecond)}`, '', ''],
  ];
}

const goal = (v: LoadVariant) => `p99 < 100 ms${met(v.ack.p99 < 100 && v.ack.failed === 0)}`;
const ms = (value: number) => (value >= 1_000 ? `${(value / 1_000).toFixed(2)} s` : `${value.toFixed(1)} ms`);
const triple = (s: LatencyStats) => `p50 ${ms(s.p50)} / p99 ${ms(s.p99)} / max ${ms(s.max)}${s.failed ? ` (${s.failed} failed)` : ''}`;
const met = (ok: boolean) => (ok ? ' (met)' : ' (NOT met)');
