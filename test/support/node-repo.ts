/**
 * A plain Node repository as a new user has one: no `.github/greenfix.yml`, `npm test` runs
 * `node --test`, a lockfile (so `npm ci` is the detected setup) and no dependencies, so setup
 * needs no registry. Setup is observable: the root package's postinstall writes `setup-ran.txt`,
 * and a test checks it, so a verified tree proves the detected setup ran before the tests.
 * `.npmrc` keeps npm offline (no audit, no funding or update checks).
 */
export const NODE_REPO: Record<string, string> = {
  'package.json': `${JSON.stringify(
    {
      name: 'sum',
      version: '1.0.0',
      private: true,
      scripts: { postinstall: "node -e \"require('fs').writeFileSync('setup-ran.txt', 'yes')\"", test: 'node --test' },
    },
    null,
    2,
  )}\n`,
  'package-lock.json': `${JSON.stringify({ name: 'sum', version: '1.0.0', lockfileVersion: 3, requires: true, packages: { '': { name: 'sum', version: '1.0.0', hasInstallScript: true } } }, null, 2)}\n`,
  '.npmrc': 'audit=false\nfund=false\nupdate-notifier=false\n',
  'sum.js': 'exports.sum = (a, b) => a - b;\n',
  'test/sum.test.js': [
    "const test = require('node:test');",
    "const assert = require('node:assert');",
    "const { existsSync } = require('node:fs');",
    "const { sum } = require('../sum.js');",
    "test('sum adds', () => assert.strictEqual(sum(2, 3), 5));",
    "test('setup ran first', () => assert.ok(existsSync('setup-ran.txt')));",
    '',
  ].join('\n'),
};

/** The fix of NODE_REPO's bug, as an edit_file call. */
export const NODE_FIX: [string, Record<string, unknown>] = ['edit_file', { path: 'sum.js', old: 'a - b', new: 'a + b' }];

/**
 * The same repository whose test run appends to a log on every run (`test-run.log`, not ignored):
 * a test artefact that must neither void verification nor enter the commit.
 */
export const NODE_REPO_WITH_LOG: Record<string, string> = {
  ...NODE_REPO,
  'package.json': NODE_REPO['package.json']!.replace('"test": "node --test"', '"test": "node log-run.js && node --test"'),
  'log-run.js': "require('fs').appendFileSync('test-run.log', `run at ${process.hrtime.bigint()}\\n`);\n",
};
