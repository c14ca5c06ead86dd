import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { errorHint } from '../../../src/agent/tools/error-hints.js';
import { runTestsTool } from '../../../src/agent/tools/run-tests.js';
import { runTool } from '../../../src/agent/tools/run.js';
import { makeFixture } from './helpers/context.js';

// Real outputs of python3 3.11, node 20 and tsc, captured by test/fixtures/error-output/generate.sh.
const FIXTURES = new URL('../../fixtures/error-output/', import.meta.url).pathname;
const output = (name: string) => readFileSync(join(FIXTURES, `${name}.txt`), 'utf8');

describe('errorHint on real runtime output: one row each', () => {
  it.each([
    ['py-name-error', 'undefined_thing is used before it is defined or imported'],
    ['py-module-not-found', 'leftpadx is not installed here and there is no network: use what is installed or the standard library'],
    ['py-syntax-error', /^SyntaxError in \/\S+\/syn\.py line 1 \(invalid syntax\): read those lines/],
    ['py-indentation-error', /^IndentationError in \/\S+\/ind\.py line 2 \(expected an indented block after function definition on line 1\)/],
    ['js-reference-error', 'missingVar is used but never declared or imported in that scope'],
    ['js-type-error-undefined', "the value whose 'b' is read is undefined: find where it should have been set (a missing return, a wrong key, an await left out)"],
    ['js-cannot-find-relative', "no file at './lib/helper': check the path and extension relative to the importing file (list_files)"],
    ['js-esm-cannot-find-relative', /^no file at '\/\S+\/nope\.mjs'/],
    ['js-cannot-find-package', "package 'left-pad-nope' is not installed and there is no network: use an installed package or write the code"],
    ['js-esm-cannot-find-package', /^package 'nopepkg' is not installed/],
    ['js-err-require-esm', 'an ES module is loaded with require(): use import (or a dynamic import()) or make this file a module'],
    ['ts-2304', 'qzxHelper is not declared or imported where it is used (TS2304)'],
    ['ts-2304-pretty', 'qzxHelper is not declared or imported where it is used (TS2304)'],
    ['ts-2339', "type '{ x: number; }' has no 'y': read the type's definition, then fix the name or the type (TS2339)"],
    ['jest-no-tests', 'the runner found no test files: check the test file names and the runner config'],
    ['py-no-tests', 'the runner found no tests: check the test file and function names (test_*.py, test_*)'],
    ['node-test-no-tests', 'node --test found no tests: check the test file names (*.test.js, test/)'],
  ])('%s', (name, expected) => {
    const hint = errorHint(output(name));
    if (typeof expected === 'string') expect(hint).toBe(expected);
    else expect(hint).toMatch(expected);
  });

  it('says nothing for output it does not recognise', () => {
    expect(errorHint('make: *** [all] Error 2\n')).toBeNull();
    expect(errorHint('')).toBeNull();
  });

  it('picks the error that comes last (the one that stopped the program)', () => {
    const both = `${output('py-module-not-found')}\nDuring handling of the above exception, another exception occurred:\n${output('py-name-error')}`;
    expect(errorHint(both)).toBe('undefined_thing is used before it is defined or imported');
  });
});

describe('hints in tool observations', () => {
  it('run: a failing command ends with the hint; a passing one has none', async () => {
    const fx = await makeFixture({ 'p.py': 'print(totl)\n', 'ok.py': 'print("fine")\n' });
    try {
      const failed = await runTool.execute({ command: 'python3 p.py' }, fx.ctx());
      expect(failed.ok).toBe(false);
      expect(failed.output.split('\n').at(-1)).toBe('[hint: totl is used before it is defined or imported]');
      const passed = await runTool.execute({ command: 'python3 ok.py' }, fx.ctx());
      expect(passed.output).not.toMatch(/\[hint:/);
    } finally {
      fx.cleanup();
    }
  });

  it('run_tests: a failed verify command ends with the hint', async () => {
    const fx = await makeFixture({ 't.js': 'require("./missing/util")\n' });
    try {
      const r = await runTestsTool.execute({}, fx.ctx({ verifyCommand: 'node t.js' }));
      expect(r.ok).toBe(false);
      expect(r.output).toMatch(/^tests failed \(exit code: 1\): not verified\./);
      expect(r.output.split('\n').at(-1)).toBe("[hint: no file at './missing/util': check the path and extension relative to the importing file (list_files)]");
    } finally {
      fx.cleanup();
    }
  });
});
