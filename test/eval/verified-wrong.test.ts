import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, writeScript } from '../cli/helpers.js';
import { cleanup, tempDir } from '../support/temp-dir.js';
import { historyRepo, subInstance, TEST_COMMAND } from './history-repo.js';

/** The gap between "the tests passed" and "the issue is fixed", counted apart. */
describe('greenfix eval run: verified but wrong', () => {
  let dir: string;
  beforeAll(() => {
    dir = tempDir('greenfix-eval-wrong-');
  });
  afterAll(() => cleanup(dir));

  it('under no_new_failures a tree that only adds a passing test verifies, and the instance check rejects it', async () => {
    const h = historyRepo(join(dir, 'repo'));
    const file = join(dir, 'instances.json');
    writeFileSync(file, JSON.stringify([subInstance(h.repo, h.deterministic)]));
    const extra = "const test = require('node:test');\ntest('something else', () => {});\n";
    const script = writeScript(dir, [[['write_file', { path: 'test/extra.test.js', content: extra }]], [['run_tests', {}]], [['finish', { summary: 'a new test passes' }]]]);
    const r = await runCli(['eval', 'run', '--instances', file, '--repo', h.repo, '--model', `scripted:${script}`, '--out', join(dir, 'out'), '--test-command', TEST_COMMAND, '--verify-mode', 'no_new_failures'], { GREENFIX_WORKDIR: join(dir, 'work') });
    expect(r.stderr).not.toMatch(/greenfix: failed/);
    expect(r.stdout).toMatch(/: 0 of 1 resolved \(0\.0 %\), 1 verified but wrong, 0 not verified/);
    const [result] = readFileSync(join(dir, 'out', 'results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { status: string; agentStatus: string; check: { reason: string } });
    expect(result).toMatchObject({ status: 'verified_wrong', agentStatus: 'verified', check: { reason: 'FAIL_TO_PASS not passing: sub subtracts (failed)' } });
    expect(readFileSync(join(dir, 'out', 'report.md'), 'utf8')).toContain('| verified but wrong | `1 (100.0 %)` |');
  });
});
