/**
 * A node:test suite whose base is already red: `adds` is the bug to fix, `unrelated` fails on main
 * for another reason, `keeps` passes on main. Its TAP output is read per test (baseline evidence).
 */
export const RED_BASE_REPO = {
  'lib.mjs': 'export const add = (a, b) => a - b;\nexport const keep = () => 1;\n',
  'math.test.mjs': `import { test } from 'node:test';
import assert from 'node:assert/strict';
import { add, keep } from './lib.mjs';
test('adds', () => assert.equal(add(1, 2), 3));
test('keeps', () => assert.equal(keep(), 1));
test('unrelated', () => assert.fail('broken on main, not by this issue'));
`,
};

/** The verify command that prints TAP. */
export const TAP_VERIFY = 'node --test --test-reporter=tap';
