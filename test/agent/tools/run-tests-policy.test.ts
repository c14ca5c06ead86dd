import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runTestsTool } from '../../../src/agent/tools/run-tests.js';
import type { TestPolicy } from '../../../src/agent/tools/types.js';
import { parseReport } from '../../../src/verify/parse-report.js';
import type { VerifyMode } from '../../../src/verify/verify-policy.js';
import { makeFixture, type Fixture } from './helpers/context.js';

// Real node:test runs (TAP). `b` fails on the base; `a` and the others pass there.
// `flip` fails on its first run of the tree and passes after (a counter in the ignored cache/).
const TESTS = `import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync, appendFileSync } from 'node:fs';
import { A, B, C } from './lib.mjs';
mkdirSync('cache', { recursive: true });
appendFileSync('cache/runs', 'x');
const runs = readFileSync('cache/runs', 'utf8').length;
test('a', () => assert.equal(A, 1));
test('b', () => assert.equal(B, 2));
test('c', () => assert.equal(C, 3));
test('flip', () => assert.ok(!existsSync('FLIP') || runs % 2 === 0));
`;
const COMMAND = 'node --test --test-reporter=tap';
const BASE = parseReport(`TAP version 13
# Subtest: a
ok 1 - a
# Subtest: b
not ok 2 - b
# Subtest: c
not ok 3 - c
# Subtest: flip
ok 4 - flip
1..4
`);

describe('run_tests under verify_mode, against a baseline', () => {
  let fx: Fixture;
  afterEach(() => fx.cleanup());
  const run = (mode: VerifyMode, lib: string, extra: Record<string, string> = {}) => async () => {
    fx = await makeFixture({ 'all.test.mjs': TESTS, 'lib.mjs': lib, '.gitignore': 'cache/\n', ...extra });
    const tests: TestPolicy = { mode, baseline: BASE, baselineSummary: null };
    return runTestsTool.execute({}, fx.ctx({ verifyCommand: COMMAND, tests }));
  };

  it('no_new_failures: b fixed, c still failing as on the base → verified on exit 1, with the comparison', async () => {
    const r = await run('no_new_failures', 'export const A = 1, B = 2, C = 0;\n')();
    expect(r.ok).toBe(true);
    expect(r.verified).toMatchObject({ exitCode: 1, tree: await fx.workspace.treeHash() });
    expect(r.verified?.tests).toMatchObject({
      mode: 'no_new_failures',
      format: 'node --test (TAP)',
      comparison: { fixed: ['b'], stillFailing: ['c'], broken: [], flaky: [] },
    });
    expect(r.output).toMatch(/^tests ran \(exit code 1 in [\d.]+s; verify_mode no_new_failures: no new failures \(verify_mode no_new_failures\); still failing: c\)/);
    expect(r.output).toMatch(/\nfail → pass: b\n/);
  });

  it('all_pass: the same tree is not verified, and the message names the test that failed on the base too', async () => {
    const r = await run('all_pass', 'export const A = 1, B = 2, C = 0;\n')();
    expect(r.ok).toBe(false);
    expect(r.verified).toBeUndefined();
    expect(r.output).toMatch(/^tests failed \(exit code: 1\): not verified: the test command did not pass: failing c \(c failed on the base too\)\./);
  });

  it('a change that breaks a base-passing test: rerun once, still failing → not verified, named', async () => {
    const r = await run('no_new_failures', 'export const A = 0, B = 2, C = 3;\n')();
    expect(r.ok).toBe(false);
    expect(r.output).toMatch(/not verified: tests that passed on the base fail now: a\./);
    expect(r.output).toMatch(/\npass → fail: a\n/);
    expect(readFileSync(join(fx.root, 'cache/runs'), 'utf8')).toBe('xx'); // the one rerun
  });

  it('a flaky test: fails, passes on the rerun → reported flaky, neither fixed nor broken', async () => {
    const r = await run('all_pass', 'export const A = 1, B = 2, C = 3;\n', { FLIP: '' })();
    expect(r.ok).toBe(true);
    expect(r.verified?.exitCode).toBe(0);
    expect(r.verified?.tests?.comparison).toMatchObject({ flaky: ['flip'], broken: [], fixed: ['b', 'c'] });
    expect(r.output).toMatch(/\nflaky \(failed, then passed when rerun; not counted as fixed or broken\): flip\n/);
  });

  it('no_new_failures with output greenfix cannot read: says so and falls back to all_pass', async () => {
    fx = await makeFixture({ 'a.txt': 'x\n' });
    const tests: TestPolicy = { mode: 'no_new_failures', baseline: BASE, baselineSummary: null };
    const r = await runTestsTool.execute({}, fx.ctx({ verifyCommand: 'echo 1 problem; exit 1', tests }));
    expect(r.ok).toBe(false);
    expect(r.output).toMatch(/not verified: the test command did not pass\.\nverify_mode no_new_failures: this run printed no test report greenfix can read, so the whole command must pass \(all_pass\)\.\ntest report: none greenfix can read \(exit code only\)\n/);
  });

  it('JUnit XML the run wrote (maven layout) is read from inside the sandbox; a symlinked report is not followed', async () => {
    const junit = readFileSync(join(import.meta.dirname, '../../fixtures/reports/junit/TEST-sample.MathTest.xml'), 'utf8');
    fx = await makeFixture({ '.gitignore': 'target/\n', 'report.src': junit, 'secret.xml': '<testsuite><testcase classname="s" name="leaked"/></testsuite>' });
    const command = 'mkdir -p target/surefire-reports && cp report.src target/surefire-reports/TEST-sample.MathTest.xml && ln -sf ../../secret.xml target/surefire-reports/TEST-link.xml && echo "[ERROR] Tests run: 4, Failures: 1" && exit 1';
    const tests: TestPolicy = { mode: 'all_pass', baseline: null, baselineSummary: null };
    const r = await runTestsTool.execute({}, fx.ctx({ verifyCommand: command, tests }));
    expect(r.ok).toBe(false);
    expect(r.output).toMatch(/not verified: the test command did not pass: failing sample\.MathTest > subtracts\.\ntest report \(JUnit XML\): 4 tests, 2 passed, 1 failed, 1 skipped\n/);
    expect(r.output).not.toContain('leaked');
  });
});
