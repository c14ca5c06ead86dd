import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git, gitRaw } from '../support/git.js';
import { makeRepo, writeFiles } from '../support/make-repo.js';

const test = (name: string, body: string, requires: string) =>
  ["const test = require('node:test');", "const assert = require('node:assert');", `const ${requires} = require('../lib.js');`, `test('${name}', () => ${body});`, ''].join('\n');

/** The plain-node test command of the repositories below (no package.json: nothing to install). */
export const TEST_COMMAND = 'node --test';

/**
 * A repository with three past fixes after its first commit, oldest first:
 * 1. `sub subtracts` — a deterministic fix: lib.js and a new test that fails before and passes after;
 * 2. `mul multiplies` — the same, but its test passes only on its first run in a tree (flaky);
 * 3. `neg` — a code change with no test change.
 * Returns the repository and the commit of each step.
 */
export function historyRepo(root: string): { repo: string; init: string; deterministic: string; flaky: string; untested: string } {
  const repo = makeRepo(root, {
    'lib.js': 'exports.add = (a, b) => a + b;\nexports.sub = (a, b) => a + b;\nexports.mul = (a, b) => a + b;\n',
    'test/add.test.js': test('add adds', 'assert.strictEqual(add(2, 3), 5)', '{ add }'),
  });
  const head = () => git(repo, 'rev-parse', 'HEAD');
  const init = head();
  const commit = (message: string) => {
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', message);
    return head();
  };
  const edit = (from: string, to: string) => {
    const lib = git(repo, 'show', 'HEAD:lib.js');
    writeFileSync(join(repo, 'lib.js'), `${lib.replace(from, to)}\n`);
  };
  edit('exports.sub = (a, b) => a + b;', 'exports.sub = (a, b) => a - b;');
  writeFiles(repo, { 'test/sub.test.js': test('sub subtracts', 'assert.strictEqual(sub(5, 3), 2)', '{ sub }') });
  const deterministic = commit('sub subtracts instead of adding\n\nsub(5, 3) gives 8. Fixes #7.');
  edit('exports.mul = (a, b) => a + b;', 'exports.mul = (a, b) => a * b;');
  writeFiles(repo, {
    'test/mul.test.js': [
      "const test = require('node:test');",
      "const assert = require('node:assert');",
      "const fs = require('node:fs');",
      "const { mul } = require('../lib.js');",
      "test('mul multiplies', () => {",
      "  const seen = fs.existsSync('.mul-ran');",
      "  fs.writeFileSync('.mul-ran', '');",
      '  assert.strictEqual(mul(2, 3), 6);',
      "  assert.ok(!seen, 'passes only on its first run');",
      '});',
      '',
    ].join('\n'),
  });
  const flaky = commit('mul adds instead of multiplying');
  edit('exports.mul = (a, b) => a * b;', 'exports.mul = (a, b) => a * b;\nexports.neg = (a) => -a;');
  const untested = commit('add neg');
  return { repo, init, deterministic, flaky, untested };
}

/** The deterministic fix of historyRepo as an instance in the SWE-bench layout (test lists as JSON strings, as SWE-bench ships them). */
export function subInstance(repo: string, fix: string, id = 'sub'): Record<string, unknown> {
  return {
    instance_id: id,
    repo: 'example/history',
    base_commit: git(repo, 'rev-parse', `${fix}^`),
    patch: gitRaw(repo, 'diff', `${fix}^`, fix, '--', 'lib.js'),
    test_patch: gitRaw(repo, 'diff', `${fix}^`, fix, '--', 'test'),
    problem_statement: 'sub subtracts instead of adding: sub(5, 3) gives 8.',
    FAIL_TO_PASS: JSON.stringify(['sub subtracts']),
    PASS_TO_PASS: JSON.stringify(['add adds']),
    version: '1.0',
  };
}
