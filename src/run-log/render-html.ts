import { createHash } from 'node:crypto';
import { clipHeadTail } from '../util/clip.js';
import { callOutcome } from './call-outcome.js';
import { endSentence } from './end-sentence.js';
import { diffHtml, escapeHtml as e } from './html-text.js';
import { editDiff, seconds } from './markdown-text.js';
import type { RunCall, RunLog } from './run-log.js';
import { tokensFact } from './tokens-fact.js';

export interface RunPageInput {
  jobId: string;
  log: RunLog;
  /** `git diff` of the verified tree against the base, or null (no verified tree yet). */
  diff: string | null;
  /** The job is queued or running: the page reloads itself. */
  live: boolean;
}

export interface RunPage {
  html: string;
  /** The Content-Security-Policy that goes with it: nothing but its own inline style. */
  csp: string;
}

const OUTPUT_CHARS = 20_000;
const REFRESH_SECONDS = 5;

const STYLE = `
:root{color-scheme:light dark;--fg:#1f2328;--bg:#fff;--muted:#59636e;--line:#d1d9e0;--code:#f6f8fa;--add:#1a7f37;--del:#cf222e;--ok:#1a7f37;--bad:#cf222e}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--bg:#0d1117;--muted:#9198a1;--line:#3d444d;--code:#151b23;--add:#3fb950;--del:#f85149;--ok:#3fb950;--bad:#f85149}}
*{box-sizing:border-box}body{margin:0;padding:1rem;font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg);max-width:60rem;margin-inline:auto}
h1{font-size:1.35rem;margin:.2rem 0 .5rem}h2{font-size:1.1rem;margin:1.5rem 0 .5rem;border-bottom:1px solid var(--line);padding-bottom:.2rem}
.facts{color:var(--muted);font-size:.9rem}.live{background:var(--code);border:1px solid var(--line);border-radius:6px;padding:.3rem .6rem;font-size:.9rem}
pre{background:var(--code);border:1px solid var(--line);border-radius:6px;padding:.6rem;overflow-x:auto;font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;white-space:pre;max-height:32rem}
details{border:1px solid var(--line);border-radius:6px;margin:.4rem 0;padding:.2rem .6rem}summary{cursor:pointer;padding:.3rem 0;overflow-wrap:anywhere}
summary code{font-size:.85rem}.ok{color:var(--ok)}.bad{color:var(--bad)}.add{color:var(--add)}.del{color:var(--del)}.hunk,.file{color:var(--muted)}
table{border-collapse:collapse;width:100%;font-size:.9rem;display:block;overflow-x:auto}th,td{border:1px solid var(--line);padding:.25rem .5rem;text-align:left;white-space:nowrap}
.note{color:var(--muted);font-size:.9rem;margin:.2rem 0}code{overflow-wrap:anywhere}
`;

/** The run page: the same run log as the check run, as a self-contained, server-rendered HTML page. */
export function renderRunPage(input: RunPageInput): RunPage {
  const { log } = input;
  const hash = createHash('sha256').update(STYLE).digest('base64');
  const csp = ["default-src 'none'", `style-src 'sha256-${hash}'`, "img-src 'none'", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'"].join('; ');
  const status = log.end ? log.end.status : input.live ? 'running' : 'not finished';
  const tokens = log.end?.tokens ?? log.steps.reduce((n, s) => n + s.tokens, 0);
  const body = [
    `<h1>What greenfix did</h1>`,
    `<p class="facts">job <code>${e(input.jobId)}</code> · <strong>${e(status)}</strong> · ${log.steps.length} steps · ${e(tokensFact(log, tokens))} · model <code>${e(log.model)}</code></p>`,
    input.live ? `<p class="live">The job is still running: this page reloads every ${REFRESH_SECONDS} seconds.</p>` : '',
    log.repaired > 0 ? `<p class="note">A crash interrupted this run; on resume ${log.repaired} unanswered call(s) were repaired.</p>` : '',
    `<h2>Task</h2><pre>${e(clipHeadTail(log.task, 4_000))}</pre>`,
    `<h2>Steps</h2>`,
    ...log.steps.flatMap((s) => [
      ...s.calls.map((c) => callDetails(s.step, c)),
      ...(s.thought ? [`<p class="note">step ${s.step}, the model: ${e(clipHeadTail(s.thought, 1_000))}</p>`] : []),
      ...s.notes.map((n) => `<p class="note">step ${s.step}, ${e(n.kind.replace('_', ' '))}: ${e(clipHeadTail(n.text, 1_000))}</p>`),
    ]),
    testRuns(log),
    `<h2>The change</h2>`,
    input.diff ? `<p class="note">The verified tree against the base:</p><pre class="diff" id="diff">${diffHtml(clipHeadTail(input.diff, 100_000))}</pre>` : `<p class="note">No verified tree, so no change to show; the edits are in the steps above.</p>`,
    `<h2>Test output</h2>`,
    evidence(log),
    `<h2>Why it ended</h2><p>${e(endSentence(log))}</p>${log.end ? `<pre>${e(log.end.reason)}</pre>` : ''}${log.end?.summary ? `<p class="note">The agent's summary:</p><pre>${e(clipHeadTail(log.end.summary, 4_000))}</pre>` : ''}`,
  ].filter((p) => p !== '');
  const refresh = input.live ? `<meta http-equiv="refresh" content="${REFRESH_SECONDS}">` : '';
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="referrer" content="no-referrer">${refresh}<title>greenfix run ${e(input.jobId)}</title><style>${STYLE}</style></head><body>\n${body.join('\n')}\n</body></html>`;
  return { html, csp };
}

function callDetails(step: number, c: RunCall): string {
  const outcome = callOutcome(c);
  const cls = c.ok === false || /^✗/.test(outcome) ? 'bad' : c.ok ? 'ok' : '';
  const summary = `<summary>${step} · <strong>${e(c.tool)}</strong> ${c.short ? `<code>${e(c.short)}</code> ` : ''}— <span class="${cls}">${e(outcome)}</span> · ${seconds(c.durationMs)}</summary>`;
  const args = typeof c.args === 'string' ? c.args : JSON.stringify(c.args, null, 2);
  const parts = [`<p class="note">Arguments</p><pre>${e(clipHeadTail(args, OUTPUT_CHARS))}</pre>`];
  if (c.edit) parts.push(`<p class="note">The edit</p><pre class="diff">${diffHtml(clipHeadTail(editDiff(c.edit), OUTPUT_CHARS))}</pre>`);
  const output = c.test?.tree ? c.test.output : c.output;
  parts.push(output === null ? `<p class="note">No result yet.</p>` : `<p class="note">Output</p><pre class="output">${e(clipHeadTail(output, OUTPUT_CHARS))}</pre>`);
  return `<details data-step="${step}">${summary}${parts.join('')}</details>`;
}

function testRuns(log: RunLog): string {
  if (log.tests.length === 0) return `<h2>Test runs</h2><p class="note">The agent never ran the tests.</p>`;
  const rows = log.tests.map((t) => `<tr><td>${t.step}</td><td>${t.exitCode ?? '—'}</td><td>${seconds(t.durationMs)}</td><td>${t.tree ? `<code>${e(t.tree)}</code>` : 'not verified'}</td></tr>`);
  return `<h2>Test runs</h2><table><thead><tr><th>step</th><th>exit code</th><th>duration</th><th>tree verified</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function evidence(log: RunLog): string {
  const v = log.verified;
  const last = log.tests.at(-1);
  const parts: string[] = [];
  if (v) {
    const tests = v.tests.length > 0 ? `<pre>${e(v.tests.join('\n'))}</pre>` : '';
    parts.push(`<p>Verified tree <code>${e(v.tree)}</code>: <code>${e(v.command)}</code> exited ${v.exitCode} in ${seconds(v.durationMs)}.</p>${tests}<pre class="output">${e(clipHeadTail(v.outputTail, OUTPUT_CHARS))}</pre>`);
  }
  if (last && !(v && last.tree === v.tree)) parts.push(`<p>The last test run (step ${last.step}, exit ${last.exitCode ?? 'unknown'}):</p><pre class="output">${e(clipHeadTail(last.output, OUTPUT_CHARS))}</pre>`);
  return parts.length > 0 ? parts.join('') : `<p class="note">No test output.</p>`;
}
