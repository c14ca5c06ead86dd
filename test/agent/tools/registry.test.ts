import { z } from 'zod';
import { createTools, executeToolCall, toolSpecs } from '../../../src/agent/tools/registry.js';
import type { Tool } from '../../../src/agent/tools/types.js';
import { LIMITS, makeFixture, type Fixture } from './helpers/context.js';

describe('registry', () => {
  let fx: Fixture;
  const tools = createTools({ searchBackend: 'git' });
  beforeEach(async () => (fx = await makeFixture({ 'a.txt': 'one\ntwo\n' })));
  afterEach(() => fx.cleanup());
  const call = (name: string, args: string, ts: readonly Tool[] = tools, outputChars = LIMITS.outputChars) =>
    executeToolCall(ts, { name, arguments: args }, fx.ctx({ limits: { ...LIMITS, outputChars } }));

  it('exposes the public tool contract, with parameters from the zod schemas', () => {
    const specs = toolSpecs(tools);
    expect(specs.map((s) => s.name)).toEqual(['list_files', 'read_file', 'search', 'edit_file', 'write_file', 'run', 'run_tests', 'finish']);
    const params = Object.fromEntries(specs.map((s) => [s.name, s.parameters]));
    const props = (name: string) => Object.keys((params[name] as { properties: object }).properties);
    expect(props('list_files')).toEqual(['path', 'depth']);
    expect(props('read_file')).toEqual(['path', 'offset', 'limit']);
    expect(props('search')).toEqual(['pattern', 'path', 'glob']);
    expect(props('edit_file')).toEqual(['path', 'old', 'new']);
    expect(props('write_file')).toEqual(['path', 'content']);
    expect(props('run')).toEqual(['command', 'timeout']);
    expect(props('run_tests')).toEqual([]);
    expect(props('finish')).toEqual(['summary', 'gave_up']);
    expect(params.read_file).toMatchObject({ type: 'object', required: ['path'] });
    expect(params.finish).toMatchObject({ required: ['summary'] });
    for (const p of Object.values(params)) expect(p).not.toHaveProperty('$schema');
    expect(JSON.stringify(specs)).not.toContain('9007199254740991');
    // The fixed prompt size: all tool specs together stay small.
    expect(JSON.stringify(specs).length).toBeLessThan(3500);
  });

  it('runs a valid call', async () => {
    expect(await call('read_file', '{"path":"a.txt","limit":1}')).toEqual({
      ok: true,
      output: '     1 │ one\n(showing 1–1 of 2 lines; use offset to read more)',
    });
  });

  it('turns an unknown tool into an observation', async () => {
    const r = await call('delete_everything', '{}');
    expect(r.ok).toBe(false);
    expect(r.output).toMatch(/^unknown tool "delete_everything"; available: list_files, read_file, search/);
  });

  it('turns invalid JSON into an observation with the expected arguments', async () => {
    const r = await call('read_file', '{"path": "a.txt"');
    expect(r.ok).toBe(false);
    expect(r.output).toMatch(/^arguments of read_file are not valid JSON \(.+\); expected read_file \{"path": string, "offset"\?: integer, "limit"\?: integer\}$/);
  });

  it('turns schema violations into an observation saying what was wrong', async () => {
    const r = await call('read_file', '{"offset": "ten"}');
    expect(r.ok).toBe(false);
    expect(r.output).toMatch(/^invalid arguments for read_file:/);
    expect(r.output).toMatch(/expected string, received undefined\n {2}→ at path/);
    expect(r.output).toMatch(/expected number, received string\n {2}→ at offset/);
    expect(r.output).toMatch(/expected read_file \{"path": string/);
  });

  it('accepts empty arguments for a tool without any', async () => {
    const r = await call('run_tests', '');
    expect(r.output).toMatch(/no test command is configured/);
  });

  it('turns refusals and unexpected exceptions into observations', async () => {
    expect(await call('read_file', '{"path":"../../etc/passwd"}')).toEqual({
      ok: false,
      output: '../../etc/passwd: outside the workspace; use a path relative to the repository root',
    });
    const broken: Tool = {
      name: 'boom',
      description: 'throws',
      schema: z.object({}),
      readOnly: true,
      execute: () => Promise.reject(new Error('disk on fire')),
    };
    expect(await call('boom', '{}', [broken])).toEqual({ ok: false, output: 'boom failed: disk on fire' });
  });

  it('clips every output to the budget', async () => {
    const r = await call('run', '{"command":"seq 1 100000"}', tools, 1000);
    expect(r.output.length).toBeLessThanOrEqual(1000);
    expect(r.output).toMatch(/bytes elided/);
  });
});
