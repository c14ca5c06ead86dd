import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readInstances } from '../../src/eval/eval-instance.js';
import { summarise } from '../../src/eval/eval-summary.js';
import { goldScript } from '../../src/eval/gold-script.js';
import { checkInstance } from '../../src/eval/instance-check.js';
import { taskText } from '../../src/eval/task-text.js';
import { isTestPath } from '../../src/eval/test-paths.js';
import type { TestReport } from '../../src/verify/test-report.js';
import { cleanup, tempDir } from '../support/temp-dir.js';
import { record } from './records.js';

const report = (tests: Array<[string, 'passed' | 'failed' | 'skipped']>, listsPassing = true): TestReport => ({
  format: 'node --test',
  tests: tests.map(([id, status]) => ({ id, status })),
  totals: { passed: tests.filter((t) => t[1] === 'passed').length, failed: tests.filter((t) => t[1] === 'failed').length, skipped: tests.filter((t) => t[1] === 'skipped').length, total: tests.length },
  listsPassing,
});

describe('the instance check', () => {
  const tests = { failToPass: ['sub subtracts'], passToPass: ['add adds'] };

  it('passes when every FAIL_TO_PASS and PASS_TO_PASS test passes, names matched whole or as the last part of a suite path', () => {
    expect(checkInstance(report([['math > sub subtracts', 'passed'], ['add adds', 'passed']]), 0, tests)).toMatchObject({ passed: true });
  });

  it('says which test did not pass, and how', () => {
    const check = checkInstance(report([['add adds', 'failed'], ['other', 'passed']]), 1, tests);
    expect(check).toEqual({ passed: false, failToPass: ['sub subtracts'], passToPass: ['add adds'], reason: 'FAIL_TO_PASS not passing: sub subtracts (did not run); PASS_TO_PASS not passing: add adds (failed)' });
    expect(checkInstance(report([['sub subtracts', 'skipped'], ['add adds', 'passed']]), 0, tests).reason).toBe('FAIL_TO_PASS not passing: sub subtracts (skipped)');
  });

  it('with a summary that names failures only, an unnamed test passed only if the run did; without a report nothing can be matched', () => {
    expect(checkInstance(report([], false), 0, tests).passed).toBe(true);
    expect(checkInstance(report([['add adds', 'failed']], false), 1, tests).passed).toBe(false);
    expect(checkInstance(null, 0, tests)).toMatchObject({ passed: false, reason: expect.stringContaining('no report') });
  });
});

describe('instance files', () => {
  let dir: string;
  beforeAll(() => {
    dir = tempDir('greenfix-eval-parts-');
  });
  afterAll(() => cleanup(dir));
  const base = { instance_id: 'a-1', repo: 'o/a', base_commit: 'a'.repeat(40), patch: '', test_patch: '', problem_statement: 'p', FAIL_TO_PASS: '["t"]', PASS_TO_PASS: [] };

  it('reads a JSON array or JSON Lines, test lists as arrays or JSON strings', () => {
    writeFileSync(join(dir, 'a.jsonl'), `${JSON.stringify(base)}\n\n${JSON.stringify({ ...base, instance_id: 'a-2', FAIL_TO_PASS: ['u'] })}\n`);
    expect(readInstances(join(dir, 'a.jsonl')).map((i) => [i.instance_id, i.FAIL_TO_PASS])).toEqual([['a-1', ['t']], ['a-2', ['u']]]);
  });

  it('names every problem: the instance, the field; a duplicate id; an id that is not a safe directory name', () => {
    writeFileSync(join(dir, 'b.json'), JSON.stringify([{ ...base, FAIL_TO_PASS: 'nope' }, { ...base, instance_id: '../x' }, base, base]));
    expect(() => readInstances(join(dir, 'b.json'))).toThrow(/a-1: FAIL_TO_PASS: must be an array[\s\S]*\.\.\/x: instance_id: letters[\s\S]*a-1: the id appears twice/);
    expect(() => readInstances(join(dir, 'missing.json'))).toThrow(/cannot read .*missing\.json: ENOENT/);
  });
});

describe('mining and the gold control', () => {
  it('tells test paths from code', () => {
    expect(['test/a.js', 'src/__tests__/b.ts', 'lib/a.test.js', 'a.spec.ts', 'pkg/a_test.go', 'tests/test_x.py', 'src/FooTest.java'].every(isTestPath)).toBe(true);
    expect(['lib/a.js', 'src/testing-utils.ts', 'contest.js', 'README.md', 'latest.js'].some(isTestPath)).toBe(false);
  });

  it('takes the task from the linked issue when a copy is here, else from the commit message', () => {
    const dir = tempDir('greenfix-eval-task-');
    writeFileSync(join(dir, '12.json'), JSON.stringify({ title: 'It breaks', body: 'Steps.' }));
    expect(taskText('fix the parser (#12)', dir)).toEqual({ text: 'It breaks\n\nSteps.', source: 'issue #12' });
    expect(taskText('fix the parser (#13)\n\nbody', dir)).toEqual({ text: 'fix the parser (#13)\n\nbody', source: 'commit message' });
    cleanup(dir);
  });

  it('replays a gold change with the agent’s own tools: edit, create, delete (quoted), then the tests and finish', () => {
    const turns = goldScript([
      { path: 'a.js', before: 'x\n', after: 'y\n' },
      { path: 'new.js', before: null, after: 'n\n' },
      { path: "it's.js", before: 'gone\n', after: null },
    ]);
    expect(turns.map((t) => t.tool_calls?.[0])).toEqual([
      { name: 'edit_file', arguments: { path: 'a.js', old: 'x\n', new: 'y\n' } },
      { name: 'write_file', arguments: { path: 'new.js', content: 'n\n' } },
      { name: 'run', arguments: { command: `rm -f -- 'it'\\''s.js'` } },
      { name: 'run_tests', arguments: {} },
      { name: 'finish', arguments: { summary: 'the gold change, replayed' } },
    ]);
  });
});

describe('the summary', () => {
  it('counts results, refusals by reason and cost per resolved instance', () => {
    const s = summarise([
      record({ instance_id: 'a', status: 'resolved' }),
      record({ instance_id: 'b', status: 'verified_wrong' }),
      record({ instance_id: 'c', status: 'not_verified', agentStatus: 'budget_exhausted' }),
      record({ instance_id: 'd', status: 'error', costUsd: null, error: 'the patch does not apply' }),
    ]);
    expect(s).toMatchObject({ instances: 4, resolved: 1, verifiedWrong: 1, notVerified: 1, errors: 1, resolvedRate: 0.25, refusals: { budget_exhausted: 1, error: 1 } });
    expect(s.costUsd).toBeCloseTo(0.03);
    expect(s.costPerResolved).toBeCloseTo(0.03);
    expect(summarise([record({ instance_id: 'a', status: 'resolved', costUsd: null })]).costPerResolved).toBeNull();
  });
});

describe('instance ids', () => {
  it('refuse what could leave the eval directory or is no branch name', () => {
    const dir = tempDir('greenfix-eval-ids-');
    const base = { repo: 'o/a', base_commit: 'a'.repeat(40), patch: '', test_patch: '', problem_statement: 'p', FAIL_TO_PASS: [] };
    for (const id of ['..', '.hidden', 'a..b', 'x.lock', '-x', 'a/b']) {
      writeFileSync(join(dir, 'i.json'), JSON.stringify([{ ...base, instance_id: id }]));
      expect(() => readInstances(join(dir, 'i.json'))).toThrow(/instance_id/);
    }
    cleanup(dir);
  });
});
