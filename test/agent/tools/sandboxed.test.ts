import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createTools, executeToolCall } from '../../../src/agent/tools/registry.js';
import type { ToolContext } from '../../../src/agent/tools/types.js';
import { makeFixture, type Fixture } from './helpers/context.js';

/** The tools together, with commands in the real bubblewrap sandbox (as the sandbox uid when root). */
describe('tools with the bwrap sandbox', () => {
  let fx: Fixture;
  const tools = createTools();
  beforeEach(async () => (fx = await makeFixture({ 'src/value.txt': 'broken\n', 'test.sh': 'grep -qx fixed src/value.txt\n' }, 'bwrap')));
  afterEach(() => fx.cleanup());
  const call = (name: string, args: object, over: Partial<ToolContext> = {}) =>
    executeToolCall(tools, { name, arguments: JSON.stringify(args) }, fx.ctx({ verifyCommand: 'bash test.sh', ...over }));

  it('edits, runs, verifies and finishes on exactly the verified tree', async () => {
    expect((await call('run_tests', {})).ok).toBe(false);
    expect((await call('edit_file', { path: 'src/value.txt', old: 'broken', new: 'fixed' })).ok).toBe(true);
    // A file the tools create belongs to the sandbox user, who can then change it.
    expect((await call('write_file', { path: 'notes/new.txt', content: 'a\n' })).ok).toBe(true);
    const appended = await call('run', { command: 'echo b >> notes/new.txt && cat notes/new.txt' });
    expect(appended.output).toBe('exit code: 0\n--- stdout ---\na\nb');
    expect(readFileSync(join(fx.root, 'notes/new.txt'), 'utf8')).toBe('a\nb\n');
    if (fx.ctx().fileOwner) expect(statSync(join(fx.root, 'notes')).uid).toBe(fx.ctx().fileOwner!.uid);

    const green = await call('run_tests', {});
    expect(green.ok).toBe(true);
    expect(green.verified?.tree).toBe(await fx.workspace.treeHash());
    const done = await call('finish', { summary: 'fixed value' }, { verified: green.verified! });
    expect(done.finish).toEqual({ summary: 'fixed value', gaveUp: false });
  });

  it('cannot reach the network from run', async () => {
    const r = await call('run', { command: 'getent hosts github.com || echo no-dns; (echo > /dev/tcp/1.1.1.1/53) 2>&1 || echo no-net' });
    expect(r.output).toMatch(/no-net/);
  });
});
