import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { editFileTool } from '../../../src/agent/tools/edit-file.js';
import { runTestsTool } from '../../../src/agent/tools/run-tests.js';
import type { ToolContext } from '../../../src/agent/tools/types.js';
import type { TestReport } from '../../../src/verify/test-report.js';
import { makeFixture, type Fixture } from './helpers/context.js';

/**
 * The clean-room gate against a model that takes shortcuts: each attack passes in the worktree
 * and must not be verified, while a real fix still is. Real git, real bwrap (the sandbox uid as a
 * deployment has it when root).
 */
describe('run_tests: the clean-room gate', () => {
  let fx: Fixture;
  afterEach(() => fx.cleanup());

  const open = async (files: Record<string, string>, setup: string | null) => {
    fx = await makeFixture({ 'lib.txt': 'broken\n', ...files }, 'bwrap');
    if (setup) {
      // Observed as runSetup observes it: what setup leaves is set aside, not part of the change.
      const { value: r } = await fx.workspace.observe(() => fx.sandbox.run({ command: setup, workspace: fx.root, timeoutMs: 30_000 }), 'all');
      expect(r.exitCode).toBe(0);
    }
    // As runFix does right after setup, before the agent acts.
    await fx.workspace.keepSetupState(fx.ctx().fileOwner);
  };
  const sh = async (command: string) => {
    const r = await fx.sandbox.run({ command, workspace: fx.root, readOnlyBinds: fx.workspace.sandboxBinds, timeoutMs: 30_000 });
    expect(r.exitCode).toBe(0);
  };
  const runTests = (verifyCommand: string, over: Partial<ToolContext> = {}) => runTestsTool.execute({}, fx.ctx({ verifyCommand, ...over }));
  const fixLib = () => editFileTool.execute({ path: 'lib.txt', old: 'broken', new: 'fixed' }, fx.ctx());

  it('control: a real fix verifies, with the setup state restored beside the tree', async () => {
    await open({ '.gitignore': 'node_modules/\n', 'test.sh': 'test -f node_modules/dep/index.js && grep -qx fixed lib.txt\n' }, 'mkdir -p node_modules/dep && echo "module.exports = 1" > node_modules/dep/index.js');
    expect((await fixLib()).ok).toBe(true);
    const r = await runTests('bash test.sh');
    expect(r.output).toMatch(/in a clean room of the tree alone/);
    expect(r.ok).toBe(true);
    expect(r.verified).toMatchObject({ tree: await fx.workspace.treeHash(), exitCode: 0 });
    expect(r.verified?.cleanRoom?.files).toBe(1);
  });

  it('an ignored shim the model wrote (node_modules/.bin) passes in the worktree, not in the clean room', async () => {
    await open({ '.gitignore': 'node_modules/\n', 'test.sh': 'export PATH="$PWD/node_modules/.bin:$PATH"\ngrep -qx fixed lib.txt\n' }, 'mkdir -p node_modules/dep && echo x > node_modules/dep/index.js');
    await sh('mkdir -p node_modules/.bin && printf "#!/bin/sh\\nexit 0\\n" > node_modules/.bin/grep && chmod +x node_modules/.bin/grep');
    const r = await runTests('bash test.sh');
    expect(r.ok).toBe(false);
    expect(r.verified).toBeUndefined();
    expect(r.output).toMatch(/tests passed in your worktree, but NOT on the tree that would be committed/);
    expect(r.output).toMatch(/node_modules\/\.bin\/grep \(not made by setup\)/);
  });

  it('a runner the model put into what setup installed (a directory the repository does not ignore) is committed with the tree, and refused', async () => {
    await open({ 'test.sh': 'if [ -f deps/bin/pass ]; then exit 0; fi\ngrep -qx fixed lib.txt\n' }, 'mkdir -p deps/bin && echo real > deps/bin/tool');
    await sh('touch deps/bin/pass');
    const r = await runTests('bash test.sh');
    expect(r.ok).toBe(false);
    expect(r.verified).toBeUndefined();
    expect(r.output).toMatch(/not verified: the tree that would be committed \(\w+\) has files inside deps, which the setup step installed/);
    // Once it is gone, a real fix verifies with the same setup.
    await sh('rm deps/bin/pass');
    expect((await fixLib()).ok).toBe(true);
    const fixed = await runTests('bash test.sh');
    expect(fixed.ok).toBe(true);
    expect(fixed.verified?.cleanRoom?.files).toBe(1);
  });

  it('a directory the model made ignored itself (a .gitignore of "*") is not in the clean room', async () => {
    await open({ 'test.sh': 'test -f extra/answer || grep -qx fixed lib.txt\n' }, null);
    await sh('mkdir -p extra && echo "*" > extra/.gitignore && echo 42 > extra/answer');
    const r = await runTests('bash test.sh');
    expect(r.ok).toBe(false);
    expect(r.output).toMatch(/NOT on the tree that would be committed/);
    expect(r.output).toMatch(/extra\/answer \(not made by setup\)/);
  });

  it('a JUnit report planted before the run does not count (no_new_failures, the runner exits 1)', async () => {
    const baseline: TestReport = { format: 'junit xml', tests: [{ id: 'suite > adds', status: 'failed' }], totals: { passed: 0, failed: 1, skipped: 0, total: 1 }, listsPassing: true };
    await open({ '.gitignore': 'junit.xml\n', 'test.sh': 'echo "1 failing"; exit 1\n' }, null);
    await sh(`printf '<testsuite name="suite" tests="1" failures="0"><testcase classname="suite" name="adds"/></testsuite>' > junit.xml`);
    const r = await runTests('bash test.sh', { tests: { mode: 'no_new_failures', baseline, baselineSummary: null } });
    expect(r.ok).toBe(false);
    expect(r.verified).toBeUndefined();
  });

  it('a report file the run writes that disagrees with what the runner printed is a failure, named', async () => {
    const tap = 'printf "TAP version 13\\nok 1 - a\\nnot ok 2 - b\\n1..2\\n"';
    const junit = `printf '<testsuite name="s" tests="2" failures="0"><testcase classname="s" name="a"/><testcase classname="s" name="b"/></testsuite>' > junit.xml`;
    await open({ '.gitignore': 'junit.xml\n', 'test.sh': `${junit}\n${tap}\nexit 0\n` }, null);
    const r = await runTests('bash test.sh');
    expect(r.ok).toBe(false);
    expect(r.output).toMatch(/not verified: the report file junit\.xml says 2 passed, 0 failed \(2 in all\); the runner printed 1 passed, 1 failed \(2 in all\)/);
  });

  it('the evidence is the clean room run, not the worktree run', async () => {
    await open({ '.gitignore': 'marker\n', 'test.sh': 'cat marker 2>/dev/null || echo "no marker here"\ngrep -qx fixed lib.txt\n' }, null);
    await sh('echo "worktree only" > marker');
    await fixLib();
    const r = await runTests('bash test.sh');
    expect(r.ok).toBe(true);
    expect(r.verified?.outputTail).toContain('no marker here');
    expect(r.verified?.outputTail).not.toContain('worktree only');
  });

  it('the clean room is shown at the worktree path: absolute paths setup wrote (a venv) still work', async () => {
    await open({ '.gitignore': '.venv/\n' }, null);
    await sh(`mkdir -p .venv/bin && printf '#!/bin/sh\\ngrep -qx fixed ${fx.root}/lib.txt\\n' > .venv/bin/check && chmod +x .venv/bin/check`);
    await fx.workspace.keepSetupState(fx.ctx().fileOwner);
    await fixLib();
    const r = await runTests('.venv/bin/check');
    expect(r.output).toMatch(/tree \w+ verified/);
    expect(r.ok).toBe(true);
  });

  const asRoot = process.getuid?.() === 0 ? it : it.skip;
  asRoot('tests in the clean room cannot change the kept setup state (hard links to files they cannot write)', async () => {
    await open({ '.gitignore': 'node_modules/\n', 'test.sh': 'echo pwned > node_modules/dep/index.js 2>/dev/null\ngrep -qx fixed lib.txt\n' }, 'mkdir -p node_modules/dep && echo original > node_modules/dep/index.js');
    await fixLib();
    const r = await runTests('bash test.sh');
    expect(r.ok).toBe(true);
    const kept = join(fx.root, '..', 'state', 'setup-state', 'tree', 'node_modules', 'dep', 'index.js');
    expect(readFileSync(kept, 'utf8')).toBe('original\n');
  });

  it('with the setup state staged ahead (as runFix stages it): what a room\'s tests wrote into node_modules is not in the next room', async () => {
    // The test passes only where no earlier run left its shim, then leaves one (and removes a dependency's file).
    const test = 'test ! -e node_modules/.bin/grep && test -f node_modules/dep/index.js || exit 1\nmkdir -p node_modules/.bin && cp /bin/true node_modules/.bin/grep && rm node_modules/dep/index.js\ngrep -qx fixed lib.txt\n';
    await open({ '.gitignore': 'node_modules/\n', 'test.sh': test }, 'mkdir -p node_modules/dep && echo "module.exports = 1" > node_modules/dep/index.js');
    const staging = fx.workspace.prepareCleanRooms(fx.ctx().fileOwner);
    try {
      await fixLib();
      // The worktree gets the same files back before each run (the worktree run is not what this is about).
      const again = () => sh('rm -rf node_modules/.bin && mkdir -p node_modules/dep && echo "module.exports = 1" > node_modules/dep/index.js');
      await again();
      const first = await runTests('bash test.sh');
      expect(first.ok).toBe(true);
      expect(first.verified?.cleanRoom).toMatchObject({ files: 1, staged: 1 });
      await again();
      await staging.ready();
      const second = await runTests('bash test.sh');
      expect(second.ok).toBe(true);
      expect(second.verified?.cleanRoom).toMatchObject({ files: 1, staged: 1 });
    } finally {
      await staging.stop();
    }
  });
});
