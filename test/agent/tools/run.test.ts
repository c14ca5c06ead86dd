import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runTool } from '../../../src/agent/tools/run.js';
import { readFileTool } from '../../../src/agent/tools/read-file.js';
import { LIMITS, makeFixture, type Fixture } from './helpers/context.js';

describe('run', () => {
  let fx: Fixture;
  beforeEach(async () => (fx = await makeFixture({ 'a.txt': 'hello\n' })));
  afterEach(() => fx.cleanup());
  const run = (command: string, timeout?: number, outputChars = LIMITS.outputChars) =>
    runTool.execute({ command, timeout }, fx.ctx({ limits: { ...LIMITS, outputChars } }));

  it('returns the exit code, stdout and stderr, running at the repo root', async () => {
    const r = await run('cat a.txt; echo oops >&2; exit 3');
    expect(r).toEqual({ ok: false, output: 'exit code: 3\n--- stdout ---\nhello\n--- stderr ---\noops' });
    expect(await run('true')).toEqual({ ok: true, output: 'exit code: 0\n(no output)' });
  });

  it('keeps the full output in a scratch file and says where when it clips', async () => {
    const r = await run('seq 1 20000', undefined, 2000);
    expect(r.ok).toBe(true);
    expect(r.output).toMatch(/^exit code: 0\n--- stdout ---\n1\n2\n/);
    expect(r.output).toMatch(/bytes elided/);
    const scratch = join(fx.workspace.scratchDir, 'run-1.log');
    expect(r.output.endsWith(`\n20000\n[output clipped; full output in ${scratch} (read_file it with offset)]`)).toBe(true);
    const full = readFileSync(scratch, 'utf8');
    expect(full.split('\n')).toHaveLength(20001);
    expect(full.endsWith('19999\n20000\n')).toBe(true);
    // The model reads it with read_file, although it lies outside the worktree.
    const read = await readFileTool.execute({ path: scratch, offset: 19999 }, fx.ctx());
    expect(read.output).toBe(' 19999 │ 19999\n 20000 │ 20000\n(showing 19999–20000 of 20000 lines; use offset to read more)');
  });

  it('numbers scratch files so earlier outputs stay readable', async () => {
    await run('echo first');
    await run('echo second');
    expect(readFileSync(join(fx.workspace.scratchDir, 'run-1.log'), 'utf8')).toBe('first\n');
    expect(readFileSync(join(fx.workspace.scratchDir, 'run-2.log'), 'utf8')).toBe('second\n');
  });

  it('kills a command at its timeout, capped by the maximum', async () => {
    const r = await run('echo started; sleep 30', 0.5);
    expect(r.ok).toBe(false);
    expect(r.output).toMatch(/^killed: timed out after 0.5s\n--- stdout ---\nstarted/);
    const capped = await runTool.execute(
      { command: 'sleep 30', timeout: 999 },
      fx.ctx({ limits: { ...LIMITS, runTimeoutMaxSec: 0.3 } }),
    );
    expect(capped.output).toMatch(/^killed: timed out after 0.3s/);
  });
});
