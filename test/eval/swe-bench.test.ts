import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, writeScript } from '../cli/helpers.js';
import { git, gitRaw } from '../support/git.js';
import { makeRepo, writeFiles } from '../support/make-repo.js';
import { cleanup, tempDir } from '../support/temp-dir.js';
import { historyRepo, subInstance, TEST_COMMAND } from './history-repo.js';

/** A second project: `greet` forgets the name; its fix and test, as an instance. */
function greetInstance(root: string): Record<string, unknown> {
  const repo = makeRepo(root, {
    'lib.js': "exports.greet = (name) => 'hello';\nexports.shout = (s) => s.toUpperCase();\n",
    'test/shout.test.js': "const test = require('node:test');\nconst assert = require('node:assert');\nconst { shout } = require('../lib.js');\ntest('shout', () => assert.strictEqual(shout('a'), 'A'));\n",
  });
  writeFiles(repo, {
    'lib.js': "exports.greet = (name) => `hello ${name}`;\nexports.shout = (s) => s.toUpperCase();\n",
    'test/greet.test.js': "const test = require('node:test');\nconst assert = require('node:assert');\nconst { greet } = require('../lib.js');\ntest('greet names', () => assert.strictEqual(greet('ada'), 'hello ada'));\n",
  });
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'greet names the person');
  return {
    instance_id: 'example__greeter-1',
    repo: 'example/greeter',
    base_commit: git(repo, 'rev-parse', 'HEAD^'),
    patch: gitRaw(repo, 'diff', 'HEAD^', 'HEAD', '--', 'lib.js'),
    test_patch: gitRaw(repo, 'diff', 'HEAD^', 'HEAD', '--', 'test'),
    problem_statement: 'greet() does not say the name',
    FAIL_TO_PASS: '["greet names"]',
    PASS_TO_PASS: '["shout"]',
    created_at: '2024-01-01T00:00:00Z',
  };
}

/** A SWE-bench-layout file with two instances of two projects, each run against its local mirror. */
describe('greenfix eval run on a SWE-bench-layout file', () => {
  let dir: string;
  beforeAll(() => {
    dir = tempDir('greenfix-eval-swe-');
  });
  afterAll(() => cleanup(dir));

  it('runs both against their mirrors (two at once), and --compare puts two runs side by side', async () => {
    const h = historyRepo(join(dir, 'src', 'history'));
    const greet = greetInstance(join(dir, 'src', 'greeter'));
    git(dir, 'clone', '-q', '--mirror', h.repo, join(dir, 'mirrors', 'example__history'));
    git(dir, 'clone', '-q', '--mirror', join(dir, 'src', 'greeter'), join(dir, 'mirrors', 'example__greeter'));
    const file = join(dir, 'swe.json');
    writeFileSync(file, JSON.stringify([subInstance(h.repo, h.deterministic, 'example__history-1'), greet]));
    const run = (model: string, out: string) =>
      runCli(['eval', 'run', '--instances', file, '--mirrors', join(dir, 'mirrors'), '--model', model, '--out', join(dir, out), '--concurrency', '2', '--test-command', TEST_COMMAND], { GREENFIX_WORKDIR: join(dir, 'work') });

    const gold = await run('gold', 'gold');
    expect(gold.stderr).not.toMatch(/greenfix: failed/);
    expect(gold.stdout).toMatch(/^gold: 2 of 2 resolved \(100\.0 %\)/);
    const lines = readFileSync(join(dir, 'gold', 'results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { instance_id: string; status: string });
    expect(lines.map((l) => [l.instance_id, l.status])).toEqual([['example__history-1', 'resolved'], ['example__greeter-1', 'resolved']]);
    expect(git(join(dir, 'mirrors', 'example__greeter'), 'show', 'greenfix-eval/example__greeter-1:lib.js')).toContain('`hello ${name}`');

    const giveUp = await run(`scripted:${writeScript(dir, [])}`, 'give-up');
    expect(giveUp.stdout).toMatch(/: 0 of 2 resolved \(0\.0 %\)/);

    const compared = await runCli(['eval', '--compare', join(dir, 'gold', 'results.jsonl'), join(dir, 'give-up', 'results.jsonl')], {});
    expect(compared.code).toBe(0);
    expect(compared.stdout).toMatch(/\| resolved \| `2 \(100\.0 %\)` \| `0 \(0\.0 %\)` \|/);
    expect(compared.stdout).toContain('| `example__history-1` | resolved | not verified ← |');
    expect(compared.stdout).toContain('| `example__greeter-1` | resolved | not verified ← |');

    // A bad instance file is a usage error naming the instance and the field; nothing runs.
    writeFileSync(join(dir, 'bad.json'), JSON.stringify([{ ...greet, base_commit: 'main' }]));
    const bad = await runCli(['eval', 'run', '--instances', join(dir, 'bad.json'), '--mirrors', join(dir, 'mirrors'), '--model', 'gold', '--out', join(dir, 'bad')], { GREENFIX_WORKDIR: join(dir, 'work') });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('example__greeter-1: base_commit: a full commit id');
  });
});
