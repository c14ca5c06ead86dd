import { clipHeadTail } from '../util/clip.js';
import { diffHtml, escapeHtml as e } from '../run-log/html-text.js';
import type { EvalRecord } from './eval-record.js';
import { summarise, summaryRows, usd } from './eval-summary.js';
import { whyLine } from './render-eval-markdown.js';

const DIFF_CHARS = 30_000;

const STYLE = `
:root{color-scheme:light dark;--fg:#1f2328;--bg:#fff;--muted:#59636e;--line:#d1d9e0;--code:#f6f8fa;--add:#1a7f37;--del:#cf222e;--ok:#1a7f37;--bad:#cf222e;--warn:#9a6700}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--bg:#0d1117;--muted:#9198a1;--line:#3d444d;--code:#151b23;--add:#3fb950;--del:#f85149;--ok:#3fb950;--bad:#f85149;--warn:#d29922}}
*{box-sizing:border-box}body{margin:0 auto;padding:1rem;font:16px/1.5 system-ui,sans-serif;color:var(--fg);background:var(--bg);max-width:80rem}
h1{font-size:1.35rem}h2{font-size:1.1rem;border-bottom:1px solid var(--line);padding-bottom:.2rem;margin-top:1.5rem}
.headline{font-size:1.2rem;margin:.3rem 0 1rem}.resolved{color:var(--ok)}.verified_wrong{color:var(--warn)}.not_verified,.error{color:var(--bad)}
table{border-collapse:collapse;font-size:.9rem}th,td{border:1px solid var(--line);padding:.25rem .5rem;text-align:left;vertical-align:top}
td.why{max-width:40rem;overflow-wrap:anywhere}
details{border:1px solid var(--line);border-radius:6px;margin:.4rem 0;padding:.2rem .6rem}summary{cursor:pointer;overflow-wrap:anywhere}
.pair{display:grid;grid-template-columns:1fr 1fr;gap:.6rem}.pair>div{min-width:0}
pre{background:var(--code);border:1px solid var(--line);border-radius:6px;padding:.6rem;overflow:auto;font:12px/1.45 ui-monospace,monospace;max-height:32rem;margin:.2rem 0}
.add{color:var(--add)}.del{color:var(--del)}.hunk,.file{color:var(--muted)}
`;

/** The Content-Security-Policy the page is written for: its own inline style, nothing else. */
export const EVAL_PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'";

/**
 * The eval as one self-contained HTML page (no script, no outside resource): the headline rate,
 * the summary, a row per instance, and per instance the change beside the gold change. All text
 * from a repository or a model is escaped.
 */
export function renderEvalHtml(records: readonly EvalRecord[], notRun: readonly string[] = []): string {
  const s = summarise(records);
  const rows = summaryRows(s).map(([k, v]) => `<tr><th>${e(k)}</th><td>${e(v)}</td></tr>`).join('');
  const instances = records
    .map((r) => `<tr><td><a href="#${e(r.instance_id)}">${e(r.instance_id)}</a></td><td class="${r.status}">${e(r.status.replace('_', ' '))}</td><td>${r.steps}</td><td>${e(usd(r.costUsd))}</td><td>${(r.wallMs / 1000).toFixed(0)} s</td><td class="why">${e(whyLine(r))}</td></tr>`)
    .join('\n');
  const details = records.map((r) => instanceDetails(r)).join('\n');
  const skipped = notRun.length > 0 ? `<p>Not run (the --max-cost budget was spent): ${e(notRun.join(', '))}</p>` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${e(EVAL_PAGE_CSP)}">
<title>greenfix eval: ${e(s.model)}</title><style>${STYLE}</style></head>
<body>
<h1>greenfix eval: ${e(s.model)}</h1>
<p class="headline" id="headline"><strong class="resolved">${s.resolved} of ${s.instances} resolved</strong> (${(s.resolvedRate * 100).toFixed(1)} %) · ${s.verifiedWrong} verified but wrong · cost ${e(usd(s.costUsd))}</p>
<table id="summary">${rows}</table>
${skipped}
<h2>Instances</h2>
<table id="instances"><tr><th>instance</th><th>result</th><th>steps</th><th>cost</th><th>time</th><th>why</th></tr>
${instances}
</table>
<h2>Changes beside the gold changes</h2>
${details}
</body></html>
`;
}

function instanceDetails(r: EvalRecord): string {
  const diff = (text: string) => `<pre>${diffHtml(clipHeadTail(text, DIFF_CHARS)) || '(no change)'}</pre>`;
  const gate = r.gate ? `<p>Why nothing was verified:</p><pre>${e(r.gate)}</pre>` : '';
  const check = r.check ? `<p>Instance check: ${e(r.check.reason)}</p>` : '';
  return `<details id="${e(r.instance_id)}"><summary><code>${e(r.instance_id)}</code>: <span class="${r.status}">${e(r.status.replace('_', ' '))}</span></summary>
<p>Task:</p><pre>${e(clipHeadTail(r.task, 4000))}</pre>${check}${gate}
<div class="pair"><div><p>The change</p>${diff(r.diff)}</div><div><p>The gold change</p>${diff(r.gold)}</div></div></details>`;
}
