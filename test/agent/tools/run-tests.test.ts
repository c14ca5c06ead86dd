import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { editFileTool } from '../../../src/agent/tools/edit-file.js';
import { finishTool } from '../../../src/agent/tools/finish.js';
import { runTestsTool } from '../../../src/agent/tools/run-tests.js';
import type { ToolContext } from '../../../src/agent/tools/types.js';
import { makeFixture, type Fixture } from './helpers/context.js';

describe('run_tests and finish', () => {
  let fx: Fixture;
  beforeEach(async () => (fx = await makeFixture({ 'a.txt': 'hello\n', '.gitignore': 'cache/\n' })));
  afterEach(() => fx.cleanup());
  const runTests = (verifyCommand: string | null) => runTestsTool.execute({}, fx.ctx({ verifyCommand }));
  const finish = (over: Partial<ToolContext>, gave_up?: boolean) => finishTool.execute({ summary: 'fixed it', gave_up }, fx.ctx(over));

  it('says when no test command is configured', async () => {
    const r = await runTests(null);
    expect(r.ok).toBe(false);
    expect(r.verified).toBeUndefined();
    expect(r.output).toMatch(/no test command is configured/);
    expect(r.output).toMatch(/\.github\/greenfix\.yml/);
  });

  it('verifies the current tree on exit 0, with the output tail', async () => {
    const r = await runTests('for i in $(seq 1 100); do echo "test $i ok"; done; test "$(cat a.txt)" = hello');
    expect(r.ok).toBe(true);
    expect(r.verified).toMatchObject({ tree: await fx.workspace.treeHash(), exitCode: 0 });
    expect(r.verified!.command).toMatch(/^for i/);
    expect(r.verified!.durationMs).toBeGreaterThanOrEqual(0);
    const tail = r.verified!.outputTail.split('\n');
    expect(tail).toHaveLength(60);
    expect(tail[0]).toBe('test 41 ok');
    expect(tail[59]).toBe('test 100 ok');
  });

  it('is not fooled by artefacts the tests create (caches, reports)', async () => {
    const r = await runTests('mkdir -p cache reports && echo x > cache/c && echo y > reports/junit.xml');
    expect(r.ok).toBe(true);
    expect(r.verified?.tree).toBe(await fx.workspace.treeHash());
  });

  it('does not verify failing tests, and shows their output', async () => {
    const r = await runTests('echo "expected 1, got 2" >&2; exit 1');
    expect(r.ok).toBe(false);
    expect(r.verified).toBeUndefined();
    const log = join(fx.workspace.scratchDir, 'tests-1.log');
    expect(r.output).toBe(`tests failed (exit code: 1): not verified.\nexpected 1, got 2\n[full output: ${log} (read_file it)]`);
    expect(readFileSync(join(fx.workspace.scratchDir, 'tests-1.log'), 'utf8')).toBe('expected 1, got 2\n');
  });

  it('voids a run that changed source files', async () => {
    const r = await runTests('echo changed > a.txt');
    expect(r.ok).toBe(false);
    expect(r.verified).toBeUndefined();
    expect(r.output).toMatch(/the test run changed source files: a\.txt — verification void/);
  });

  it('finish: refused without a green run, accepted on the verified tree, refused after a later edit', async () => {
    expect(await finish({})).toEqual({ ok: false, output: expect.stringMatching(/never run green/) });

    const green = await runTests('true');
    expect(green.verified).toBeDefined();
    const done = await finish({ verified: green.verified! });
    expect(done).toMatchObject({ ok: true, finish: { summary: 'fixed it', gaveUp: false } });

    await editFileTool.execute({ path: 'a.txt', old: 'hello', new: 'bye' }, fx.ctx());
    const stale = await finish({ verified: green.verified! });
    expect(stale.ok).toBe(false);
    expect(stale.finish).toBeUndefined();
    expect(stale.output).toMatch(/changed since the last green run_tests\. Run run_tests again/);
  });

  it('finish with gave_up needs no verification', async () => {
    expect(await finish({}, true)).toEqual({ ok: true, output: 'finished (gave up)', finish: { summary: 'fixed it', gaveUp: true } });
  });
});
