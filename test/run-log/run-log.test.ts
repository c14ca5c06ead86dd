import { readFileSync } from 'node:fs';
import { readJournal } from '../../src/agent/journal.js';
import { buildRunLog } from '../../src/run-log/run-log.js';
import { readRunLog, renderRunLogJson } from '../../src/run-log/read-run-log.js';
import { CHECK_TEXT_LIMIT, renderRunLogMarkdown } from '../../src/run-log/render-markdown.js';
import { renderRunLogText } from '../../src/run-log/render-text.js';
import { runCli } from '../cli/helpers.js';
import { cleanup, tempDir } from '../support/temp-dir.js';
import { LEAKED_TOKEN, SCRIPTS, realRun, type RealRun } from './real-runs.js';

/** The renderings of journals of real runs: the built CLI, real git and bwrap, scripted models. */
describe('run log of real runs', () => {
  let dir: string;
  const runs: Partial<Record<keyof typeof SCRIPTS, RealRun>> = {};
  let uninterrupted: RealRun;
  const get = (name: keyof typeof SCRIPTS): RealRun => {
    const r = runs[name];
    if (!r) throw new Error(`run ${name} missing`);
    return r;
  };

  beforeAll(async () => {
    dir = tempDir('greenfix-runlog-');
    runs.fix = await realRun(dir, 'fix', SCRIPTS.fix);
    runs.refusal = await realRun(dir, 'refusal', SCRIPTS.refusal);
    runs.stuck = await realRun(dir, 'stuck', SCRIPTS.stuck);
    runs.resumed = await realRun(dir, 'resumed', SCRIPTS.resumed, { env: { GREENFIX_CRASH_AT: 'before_tool:2' }, resume: true });
    runs.huge = await realRun(dir, 'huge', SCRIPTS.huge);
    uninterrupted = await realRun(dir, 'uninterrupted', SCRIPTS.resumed);
  }, 240_000);
  afterAll(() => cleanup(dir));

  it('a fix: every step with its tool, the failing then passing test run, the edit as a diff, the evidence', () => {
    const r = get('fix');
    expect(r.run.code).toBe(0);
    const log = readRunLog(r.journal);
    expect(log.steps.map((s) => s.calls.map((c) => c.tool))).toEqual([['read_file'], ['run_tests'], ['edit_file'], ['run_tests'], ['finish']]);
    expect(log.tests.map((t) => t.exitCode)).toEqual([1, 0]);
    expect(log.tests[0]?.tree).toBeNull();
    expect(log.tests[1]?.tree).toBe(r.run.json?.verifiedTree);
    expect(log.verified?.tree).toBe(r.run.json?.verifiedTree);
    expect(log.end).toMatchObject({ status: 'verified', steps: 5, summary: 'add adds now' });
    const md = renderRunLogMarkdown(log);
    expect(md).toContain('| 2 | run_tests |  | ✗ exit 1 |');
    expect(md).toMatch(/\| 4 \| run_tests \| {2}\| ✓ exit 0, verified [0-9a-f]{12} \|/);
    expect(md).toContain('```diff\n--- lib.sh\n+++ lib.sh\n-$1 - $2\n+$1 + $2\n```');
    expect(md).toContain(`Verified tree \`${String(r.run.json?.verifiedTree)}\``);
    expect(md).toContain('add 2 3 gave -1'); // what the failing run said
    expect(md).toContain('The agent finished on a verified tree.');
    const text = renderRunLogText(log);
    expect(text).toMatch(/\[step 3\][^\n]*\n {2}edit_file lib\.sh → ✓ ok/);
    expect(text).toContain(`verified tree ${String(r.run.json?.verifiedTree)} (bash test.sh`);
    const json = JSON.parse(renderRunLogJson(log)) as { version: number; steps: unknown[]; end: { status: string } };
    expect(json).toMatchObject({ version: 1, end: { status: 'verified' } });
    expect(json.steps).toHaveLength(5);
  });

  it('a refusal: the refused finish, the give-up, no verified tree', () => {
    const r = get('refusal');
    expect(r.run.code).toBe(1);
    const log = readRunLog(r.journal);
    const finishes = log.steps.flatMap((s) => s.calls).filter((c) => c.tool === 'finish');
    expect(finishes.map((c) => c.ok)).toEqual([false, true]);
    const md = renderRunLogMarkdown(log);
    expect(md).toContain('| finish | `trust me` | ✗ refused |');
    expect(md).toContain('The agent never ran the tests.');
    expect(md).toContain('No tree was verified.');
    expect(md).toContain('The agent gave up.');
  });

  it('a stuck run: the warning on its step, and why it stopped', () => {
    const r = get('stuck');
    const log = readRunLog(r.journal);
    expect(log.end?.status).toBe('stuck');
    expect(log.steps.some((s) => s.notes.some((n) => n.kind === 'warning' && /stuck/i.test(n.text)))).toBe(true);
    const md = renderRunLogMarkdown(log);
    expect(md).toMatch(/\| read_file \| `lib\.sh` \| ✓ ok ⚠ warning \|/);
    expect(md).toContain('greenfix stopped the agent: it was stuck.');
  });

  it('a resumed run: the same steps as an uninterrupted one, the repaired call marked', () => {
    const r = get('resumed');
    expect(r.run.code).toBe(0);
    const log = readRunLog(r.journal);
    expect(log.steps.map((s) => s.step)).toEqual([...new Set(log.steps.map((s) => s.step))]);
    expect(log.repaired).toBeGreaterThan(0);
    const repaired = log.steps.flatMap((s) => s.calls).filter((c) => c.repair);
    expect(repaired.map((c) => c.tool)).toEqual(['edit_file']);
    expect(log.end?.status).toBe('verified');
    const md = renderRunLogMarkdown(log);
    expect(md).toContain('A crash interrupted this run');
    expect(md).toMatch(/after a crash/);
    // The same steps, calls and test results as the same script run without a crash.
    // (the repaired call's own result says what resume did with it; every other outcome is the same)
    const shape = (l: typeof log, repaired: Set<string>) => l.steps.map((s) => s.calls.map((c) => [c.tool, c.short, repaired.has(`${s.step}`) ? 'repaired' : c.ok]));
    const repairedSteps = new Set(log.steps.filter((s) => s.calls.some((c) => c.repair)).map((s) => `${s.step}`));
    const plain = readRunLog(uninterrupted.journal);
    expect(shape(log, repairedSteps)).toEqual(shape(plain, repairedSteps));
    expect(log.tests.map((t) => [t.exitCode, t.tree !== null])).toEqual(plain.tests.map((t) => [t.exitCode, t.tree !== null]));
    expect(plain.repaired).toBe(0);
    // Folding the records twice is the same log: the renderers read the journal alone.
    expect(buildRunLog(readJournal(r.journal))).toEqual(log);
  });

  it('huge outputs: within 65,535 characters, the oldest outputs summarised, the evidence and last test run kept, no token', () => {
    const r = get('huge');
    expect(r.run.code).toBe(0);
    const raw = readFileSync(r.journal, 'utf8');
    expect(raw.length).toBeGreaterThan(4 * CHECK_TEXT_LIMIT);
    expect(raw).not.toContain(LEAKED_TOKEN); // redacted at write (issue 24): the journal on disk holds no token either
    expect(raw).toContain('token=[redacted]');
    const log = readRunLog(r.journal);
    const md = renderRunLogMarkdown(log);
    expect(md.length).toBeLessThanOrEqual(CHECK_TEXT_LIMIT);
    expect(md).toContain(`Verified tree \`${String(r.run.json?.verifiedTree)}\``);
    expect(md).toContain('```diff\n--- lib.sh');
    expect(md).toMatch(/To fit GitHub's limit, (the details of \d+ older calls were left out and )?some outputs are shortened/);
    expect(md).toContain('\nok\n'); // the verified run's output
    expect(md).toMatch(/\| 43 \| run_tests \|/);
    // The oldest output is shortened, the newest commands' kept in full.
    expect(detailOf(md, 2).length).toBeLessThan(600);
    expect(detailOf(md, 41).length).toBeGreaterThan(2_500);
    for (const text of [md, renderRunLogText(log), renderRunLogJson(log)]) {
      expect(text).not.toContain(LEAKED_TOKEN);
      expect(text).toContain('token=[redacted]');
    }
    // A tighter limit still keeps the evidence (the table's oldest rows go).
    const tight = renderRunLogMarkdown(log, { maxChars: 3_000 });
    expect(tight.length).toBeLessThanOrEqual(3_000);
    expect(tight).toContain(`Verified tree \`${String(r.run.json?.verifiedTree)}\``);
    expect(tight).toMatch(/earlier rows left out to fit/);
  });

  it('greenfix log prints the steps, exports md and json, and answers bad input with exit 2', async () => {
    const r = get('fix');
    const text = await runCli(['log', '--run', r.dir], {});
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('[step 1]');
    expect(text.stdout).toContain('run_tests → ✗ exit 1');
    const md = await runCli(['log', r.journal, '--format', 'md'], {});
    expect(md.stdout.trim()).toBe(renderRunLogMarkdown(readRunLog(r.journal)));
    const json = await runCli(['log', r.journal, '--format', 'json'], {});
    expect(JSON.parse(json.stdout)).toMatchObject({ version: 1, end: { status: 'verified' } });
    const missing = await runCli(['log', `${r.dir}/nope.jsonl`], {});
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no journal at');
    const format = await runCli(['log', r.journal, '--format', 'html'], {});
    expect(format.code).toBe(2);
    expect(format.stderr).toContain('--format must be one of text, md, json');
    expect(r.run.stderr).toContain(`greenfix log --run ${r.dir}`);
  });
});

/** The detail block of one step in the Markdown: from its title to the next title or section. */
function detailOf(md: string, step: number): string {
  const start = md.indexOf(`**${step} · `);
  if (start < 0) return '';
  const next = md.slice(start + 1).search(/\n\*\*\d+ · |\n####|\n_To fit/);
  return next < 0 ? md.slice(start) : md.slice(start, start + 1 + next);
}
