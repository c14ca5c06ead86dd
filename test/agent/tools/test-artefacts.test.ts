import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { editFileTool } from '../../../src/agent/tools/edit-file.js';
import { runTool } from '../../../src/agent/tools/run.js';
import { runTestsTool } from '../../../src/agent/tools/run-tests.js';
import { writeFileTool } from '../../../src/agent/tools/write-file.js';
import { GitWorkspace } from '../../../src/workspace/git-workspace.js';
import { git, gitRaw } from '../../support/git.js';
import { makeFixture, type Fixture } from './helpers/context.js';

/** A test command that passes when a.txt says "fixed" and appends to test-run.log (not ignored) on every run. */
const TESTS = 'echo "run $$" >> test-run.log; mkdir -p snapshots && date +%N > snapshots/last.snap; grep -q fixed a.txt';

/** The files in `tree` (a tree id in the fixture's repository). */
function filesOf(fx: Fixture, tree: string): string[] {
  return git(fx.root, 'ls-tree', '-r', '--name-only', tree).split('\n').filter(Boolean);
}

describe('test artefacts: what test runs write outside the sources', () => {
  let fx: Fixture;
  beforeEach(async () => (fx = await makeFixture({ 'a.txt': 'broken\n', 'b.txt': 'base\n' })));
  afterEach(() => fx.cleanup());
  const runTests = (command = TESTS) => runTestsTool.execute({}, fx.ctx({ verifyCommand: command }));
  const edit = (path: string, old: string, replacement: string) => editFileTool.execute({ path, old, new: replacement }, fx.ctx());

  it('run_tests before and after the fix: verified, the artefacts out of the tree, the model told once', async () => {
    const baseTree = await fx.workspace.treeHash();
    const red = await runTests();
    expect(red.ok).toBe(false);
    expect(red.output).toContain('[the tests wrote snapshots/last.snap, test-run.log: test artefacts');
    expect(await fx.workspace.treeHash()).toBe(baseTree);

    await edit('a.txt', 'broken', 'fixed');
    const green = await runTests();
    expect(green.output).not.toContain('changed source files');
    expect(green.ok).toBe(true);
    expect(green.output).not.toContain('test artefacts'); // said once, on the run that first wrote them
    expect(readFileSync(join(fx.root, 'test-run.log'), 'utf8').split('\n').filter(Boolean)).toHaveLength(2);

    const tree = green.verified!.tree;
    expect(tree).toBe(await fx.workspace.treeHash());
    expect(filesOf(fx, tree).sort()).toEqual(filesOf(fx, 'HEAD^{tree}').sort());
    expect(gitRaw(fx.root, 'show', `${tree}:a.txt`)).toBe('fixed\n');

    // A third run rewrites them again: still verified, same tree.
    const again = await runTests();
    expect(again.ok).toBe(true);
    expect(again.verified!.tree).toBe(tree);
  });

  it('stay artefacts for a resumed process (the workspace state keeps them)', async () => {
    await runTests();
    const stateDir = join(fx.root, '..', 'state');
    const reopened = await GitWorkspace.open({ root: fx.root, baseCommit: fx.workspace.baseCommit, stateDir });
    await edit('a.txt', 'broken', 'fixed');
    const green = await runTestsTool.execute({}, fx.ctx({ workspace: reopened, verifyCommand: TESTS }));
    expect(green.ok).toBe(true);
    expect(filesOf(fx, green.verified!.tree).sort()).toEqual(filesOf(fx, 'HEAD^{tree}').sort());
  });

  it('a base source file the test run changes still voids it, on a later run too', async () => {
    const command = `${TESTS}; echo touched >> b.txt`;
    await edit('a.txt', 'broken', 'fixed');
    expect((await runTests(command)).output).toMatch(/changed source files: b\.txt — verification void/);
    await fx.workspace.observe(async () => git(fx.root, 'checkout', '--', 'b.txt'), 'created');
    const second = await runTests(command);
    expect(second.ok).toBe(false);
    expect(second.output).toMatch(/changed source files: b\.txt — verification void/);
  });

  it('a file the agent wrote is a source: a test run changing it voids the run', async () => {
    await writeFileTool.execute({ path: 'notes.md', content: 'mine\n' }, fx.ctx());
    await edit('a.txt', 'broken', 'fixed');
    const r = await runTests(`${TESTS}; echo more >> notes.md`);
    expect(r.ok).toBe(false);
    expect(r.output).toMatch(/changed source files: notes\.md/);
  });

  it('an edit by the agent brings an artefact back into the tree; from then on the tests may not change it', async () => {
    await runTests();
    await edit('test-run.log', readFileSync(join(fx.root, 'test-run.log'), 'utf8'), 'kept on purpose\n');
    await edit('a.txt', 'broken', 'fixed');
    expect(filesOf(fx, await fx.workspace.treeHash())).toContain('test-run.log');
    const r = await runTests();
    expect(r.ok).toBe(false);
    expect(r.output).toMatch(/changed source files: test-run\.log/);
  });

  it("what setup left behind and the tests then rewrite is an artefact, not a change", async () => {
    await fx.workspace.observe(async () => git(fx.root, 'config', '--file', 'tool-cache.ini', 'cache.warm', 'no'), 'all');
    await edit('a.txt', 'broken', 'fixed');
    const r = await runTests(`${TESTS}; echo rewritten > tool-cache.ini`);
    expect(r.output).not.toContain('changed source files');
    expect(r.ok).toBe(true);
    expect(filesOf(fx, r.verified!.tree).sort()).toEqual(filesOf(fx, 'HEAD^{tree}').sort());
  });

  it('a log first made by a `run` of the tests is the agent\'s file: void, with the way out; deleted, run_tests makes it an artefact', async () => {
    await edit('a.txt', 'broken', 'fixed');
    await runTool.execute({ command: TESTS }, fx.ctx());
    const voided = await runTests();
    expect(voided.ok).toBe(false);
    expect(voided.output).toMatch(/changed source files: snapshots\/last\.snap, test-run\.log — verification void/);
    expect(voided.output).toContain('delete it and run_tests again');
    await runTool.execute({ command: 'rm -r test-run.log snapshots' }, fx.ctx());
    const green = await runTests();
    expect(green.ok).toBe(true);
    expect(filesOf(fx, green.verified!.tree).sort()).toEqual(filesOf(fx, 'HEAD^{tree}').sort());
  });
});
