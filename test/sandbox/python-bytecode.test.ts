import { existsSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSandbox } from '../../src/sandbox/create-sandbox.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { sandboxWorkspace } from './fixtures.js';
import { TempDirs } from '../support/temp-dir.js';

const temp = new TempDirs();
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await createSandbox({ env: { PATH: process.env.PATH }, log: () => undefined });
});
afterEach(() => temp.cleanup());

/**
 * Python trusts a cached `.pyc` while the source's mtime (whole seconds) and size match. An edit
 * that keeps the size within the second of a test run (`a - b` → `a + b`, as the model makes them)
 * would be tested as the old code: the run after the fix fails, or a run passes on code that is
 * no longer there. Commands in the sandbox write no bytecode, so each run compiles what is there.
 */
describe('Python bytecode in the sandbox', () => {
  it('an edit of the same size in the same second is what the next run imports; no __pycache__ is left behind', async () => {
    const workspace = await sandboxWorkspace(temp);
    const source = join(workspace, 'calc.py');
    writeFileSync(source, 'def add(a, b):\n    return a - b\n');
    const run = () => sandbox.run({ command: 'python3 -c "import calc; print(calc.add(2, 3))"', workspace, timeoutMs: 10_000 });
    expect((await run()).stdout).toBe('-1\n');
    const before = statSync(source);
    writeFileSync(source, 'def add(a, b):\n    return a + b\n');
    utimesSync(source, before.atime, before.mtime); // the same second, as a quick edit lands
    expect((await run()).stdout).toBe('5\n');
    expect(existsSync(join(workspace, '__pycache__'))).toBe(false);
  });
});
