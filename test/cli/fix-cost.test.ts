import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUGGY_REPO, FIX_EDIT, runCli, type CliRun } from './helpers.js';
import { cleanup, tempDir } from '../support/temp-dir.js';
import { makeRepo } from '../support/make-repo.js';

/**
 * Cost end to end through the built CLI (real git, real bwrap): a scripted model that reports
 * usage, priced from GREENFIX_PRICES. Each call: 120,000 prompt tokens (40,000 cached) and 2,000
 * completion tokens at $2.50 / $1.25 / $10 per million = $0.20 + $0.05 + $0.02 = $0.27.
 */
describe('greenfix fix: cost', () => {
  let dir: string;
  let repo: string;
  let script: string;
  const usage = { prompt: 120_000, completion: 2_000, cached: 40_000 };
  const turns = [[['read_file', { path: 'lib.sh' }]], [FIX_EDIT], [['run_tests', {}]], [['finish', { summary: 'add adds' }]]] as const;

  beforeEach(() => {
    dir = tempDir('greenfix-cost-');
    repo = makeRepo(join(dir, 'repo'), BUGGY_REPO);
    script = join(dir, 'script.json');
    writeFileSync(script, JSON.stringify({ turns: turns.map((calls) => ({ tool_calls: calls.map(([name, args]) => ({ name, arguments: args })), usage })) }));
  });
  afterEach(() => cleanup(dir));

  const fix = (env: Record<string, string>, ...extra: string[]): Promise<CliRun> =>
    runCli(['fix', '--repo', repo, '--task', 'add subtracts instead of adding', '--verify', 'bash test.sh', '--model', `scripted:${script}`, '--json', ...extra], {
      GREENFIX_WORKDIR: join(dir, 'work'),
      ...env,
    });
  const prices = () => JSON.stringify({ [`scripted:${script}`]: { input: 2.5, cached_input: 1.25, output: 10 } });

  it('reports the exact cost in the progress lines, the final line and the JSON summary', async () => {
    const r = await fix({ GREENFIX_PRICES: prices() });
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({ status: 'verified', steps: 4, tokens: 4 * 122_000, costUsd: 1.08, cost: '$1.08' });
    const progress = r.stderr.split('\n').filter((l) => /^\[step \d\] model:/.test(l));
    expect(progress.map((l) => l.split(', ').at(-1))).toEqual(['$0.27', '$0.54', '$0.81', '$1.08']);
    expect(r.stderr).toContain('greenfix: this fix cost $1.08.');
  });

  it('with no price says "cost unknown" everywhere and shows no number', async () => {
    const r = await fix({});
    expect(r.code).toBe(0);
    const unknown = `cost unknown (no price for scripted:${script})`;
    expect(r.json).toMatchObject({ status: 'verified', costUsd: null, cost: unknown });
    expect(r.stderr).toContain(`greenfix: this fix: ${unknown}.`);
    expect(r.stderr).not.toMatch(/\$\d+\.\d\d/);
  });

  it('--max-cost stops before the call that could cross it: no commit, the attempt cost said', async () => {
    // Worst case of a next call: 150,000 uncached prompt tokens ($0.375) + a 4096-token reply ($0.041).
    // After one call ($0.27) a second fits under $0.70; after two ($0.54) a third might not.
    const r = await fix({ GREENFIX_PRICES: prices() }, '--max-cost', '0.70');
    expect(r.code).toBe(1);
    expect(r.json).toMatchObject({ status: 'budget_exhausted', steps: 2, commit: null, costUsd: 0.54 });
    expect(String(r.json?.reason)).toMatch(/^cost budget reached: \$0\.54 spent of \$0\.70/);
    expect(r.stderr).toContain('greenfix: this attempt cost $0.54 and produced no commit.');
  });

  it('--max-cost must be a positive amount', async () => {
    const r = await fix({}, '--max-cost', 'lots');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--max-cost: /);
  });

  it('a bad GREENFIX_PRICES is a configuration error listing every problem', async () => {
    const r = await fix({ GREENFIX_PRICES: '{"a": {"input": -1, "output": 1}, "b": {"input": 1}}' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/GREENFIX_PRICES: a\.input: /);
    expect(r.stderr).toMatch(/GREENFIX_PRICES: b\.output: /);
  });
});
