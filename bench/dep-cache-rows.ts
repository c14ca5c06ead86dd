import type { DepCacheBench } from './dep-cache-setup.js';
import type { LabelToModelBench } from './label-to-model.js';
import type { PeakRssBench, ServeRssBench } from './peak-rss.js';
import type { ServeBusyRssBench } from './serve-busy-rss.js';

type Row = [benchmark: string, measured: string, baseline: string, ratio: string, goal: string];

/** The dependency cache's and the worker's memory rows of the bench table (issue 15). */
export function depCacheRows(
  c: DepCacheBench | undefined,
  fix: PeakRssBench | undefined,
  serve: ServeRssBench | undefined,
  label?: LabelToModelBench,
  busy?: ServeBusyRssBench,
): Row[] {
  const rows: Row[] = [];
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  if (c) {
    const met = c.ratio <= 0.1 && c.ratioMax <= 0.15;
    rows.push([
      `setup, jest (${c.packages} top-level packages, ${(c.bytes / 1024 ** 2).toFixed(0)} MB), restored ×${c.restoredRuns.length} (median; min–max)`,
      `${s(c.restoredMs)} (${s(Math.min(...c.restoredRuns))}–${s(Math.max(...c.restoredRuns))})`,
      `${s(c.coldMs)} cold npm ci`,
      `${c.ratio.toFixed(3)} (${c.ratioMin.toFixed(3)}–${c.ratioMax.toFixed(3)})`,
      `≤ 0.10, max ≤ 0.15${met ? ' (met)' : ' (NOT met)'}`,
    ]);
    rows.push(['  of which the restore itself (median)', s(c.restoreOnlyMs), `${s(c.coldMs)} cold npm ci`, (c.restoreOnlyMs / c.coldMs).toFixed(3), '']);
    rows.push(['  warm npm cache only (package-cache bind)', s(c.warmNpmMs), `${s(c.coldMs)} cold npm ci`, (c.warmNpmMs / c.coldMs).toFixed(3), '']);
  }
  if (fix) rows.push([`greenfix fix peak RSS, ${fix.fixSteps}-step scripted session`, `${fix.fixPeakMb.toFixed(0)} MB`, '138 MB (issue 15)', (fix.fixPeakMb / 138).toFixed(2), `≤ 100 MB${fix.fixPeakMb <= 100 ? ' (met)' : ' (NOT met)'}`]);
  if (label) {
    const warm = label.cacheHits === label.warmRuns.length ? '' : ` (only ${label.cacheHits}/${label.warmRuns.length} restored)`;
    rows.push([`label → first model request, warm mirror + dependency cache${warm}`, s(label.warmMs), `${s(label.coldMs)} first job`, label.ratio.toFixed(2), `< 3 s${label.warmMs < 3_000 ? ' (met)' : ' (NOT met)'}`]);
  }
  if (serve) rows.push(['greenfix serve RSS, idle', `${serve.idleMb.toFixed(0)} MB`, '', '', '']);
  if (busy && serve) rows.push(['greenfix serve RSS, one job running (max sampled)', `${busy.busyMb.toFixed(0)} MB`, `${serve.idleMb.toFixed(0)} MB idle`, (busy.busyMb / serve.idleMb).toFixed(2), '']);
  return rows;
}
