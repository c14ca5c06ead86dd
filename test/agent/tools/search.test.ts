import { createSearchTool } from '../../../src/agent/tools/search.js';
import type { SearchBackend } from '../../../src/agent/tools/search-backends.js';
import { makeFixture, type Fixture } from './helpers/context.js';
import { writeFiles } from '../../support/make-repo.js';

describe.each<SearchBackend>(['rg', 'git'])('search (%s backend)', (backend) => {
  let fx: Fixture;
  const tool = createSearchTool(backend);
  beforeEach(async () => {
    fx = await makeFixture({
      '.gitignore': 'build/\n*.log\n',
      'src/a.ts': 'export const needle = 1;\nconst other = 2;\n',
      'src/b.js': 'let needle = 3;\n',
      'docs/c.md': 'a needle in docs\n',
    });
    // Untracked but not ignored: found. Ignored: not found.
    writeFiles(fx.root, { 'src/new.ts': 'needle again\n', 'build/out.js': 'needle built\n', 'debug.log': 'needle log\n' });
    writeFiles(fx.root, { '.greenfix/run-1.log': 'needle scratch\n' });
  });
  afterEach(() => fx.cleanup());
  const search = (args: { pattern: string; path?: string; glob?: string }) => tool.execute(args, fx.ctx());

  it('finds matches as path:line:text and honours .gitignore', async () => {
    const r = await search({ pattern: 'needle' });
    expect(r.ok).toBe(true);
    expect(r.output.split('\n').sort()).toEqual([
      'docs/c.md:1:a needle in docs',
      'src/a.ts:1:export const needle = 1;',
      'src/b.js:1:let needle = 3;',
      'src/new.ts:1:needle again',
    ]);
  });

  it('narrows by path and by glob', async () => {
    expect((await search({ pattern: 'needle', path: 'docs' })).output).toBe('docs/c.md:1:a needle in docs');
    expect((await search({ pattern: 'needle', glob: '*.js' })).output).toBe('src/b.js:1:let needle = 3;');
    expect((await search({ pattern: 'needle', path: 'src/a.ts' })).output).toBe('src/a.ts:1:export const needle = 1;');
  });

  it('uses the pattern as a regex and says when nothing matched', async () => {
    expect((await search({ pattern: 'const (needle|other) = [12]' })).output.split('\n')).toEqual([
      'src/a.ts:1:export const needle = 1;',
      'src/a.ts:2:const other = 2;',
    ]);
    expect(await search({ pattern: 'no-such-text' })).toEqual({ ok: true, output: 'no matches' });
  });

  it('reports an invalid regex clearly', async () => {
    const r = await search({ pattern: 'a(b' });
    expect(r.ok).toBe(false);
    expect(r.output).toMatch(/^search failed \(invalid pattern or path\?\): .*(regex parse error|Unmatched)/s);
  });

  it('caps matches and summarises per file', async () => {
    writeFiles(fx.root, {
      'many/x.txt': 'hit\n'.repeat(150),
      'many/y.txt': 'hit\n'.repeat(100),
    });
    const r = await search({ pattern: '^hit$' });
    const lines = r.output.split('\n');
    expect(lines.filter((l) => /^many\/[xy]\.txt:\d+:hit$/.test(l))).toHaveLength(200);
    expect(r.output).toContain('[showing 200 of 250 matches in 2 files; narrow with path or glob. Matches per file:]');
    expect(r.output).toContain('  many/x.txt: 150');
    expect(r.output).toContain('  many/y.txt: 100');
  });

  it('refuses paths outside the workspace', async () => {
    await expect(search({ pattern: 'root', path: '/etc' })).rejects.toThrow(/outside the workspace/);
  });
});
