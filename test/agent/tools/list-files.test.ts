import { listFilesTool } from '../../../src/agent/tools/list-files.js';
import { makeFixture, type Fixture } from './helpers/context.js';
import { writeFiles } from '../../support/make-repo.js';

describe('list_files', () => {
  let fx: Fixture;
  beforeEach(async () => {
    fx = await makeFixture({
      '.gitignore': 'node_modules/\n',
      'package.json': '{}\n',
      'src/index.ts': '',
      'src/agent/loop.ts': '',
      'src/agent/tools/a.ts': '',
      'src/agent/tools/deep/b.ts': '',
    });
    writeFiles(fx.root, { 'node_modules/x/index.js': '', 'src/untracked.ts': '' });
  });
  afterEach(() => fx.cleanup());
  const list = (args: { path?: string; depth?: number }) => listFilesTool.execute(args, fx.ctx());

  it('shows a depth-limited tree honouring .gitignore, hiding .git and .greenfix', async () => {
    const r = await list({});
    expect(r.output).toBe(
      [
        './ (8 files)',
        'src/',
        '  agent/',
        '    tools/ (2 files)',
        '    loop.ts',
        '  index.ts',
        '  untracked.ts',
        '.gitignore',
        'package.json',
        'README.md',
      ].join('\n'),
    );
    expect(r.output).not.toMatch(/node_modules|\.greenfix|\.git\//);
  });

  it('lists under a path with a given depth', async () => {
    expect((await list({ path: 'src/agent', depth: 1 })).output).toBe('src/agent/ (3 files)\ntools/ (2 files)\nloop.ts');
    expect((await list({ path: 'src/agent/tools', depth: 5 })).output).toBe('src/agent/tools/ (2 files)\ndeep/\n  b.ts\na.ts');
  });

  it('caps the number of entries', async () => {
    writeFiles(fx.root, Object.fromEntries(Array.from({ length: 450 }, (_, i) => [`many/f${String(i).padStart(3, '0')}.txt`, ''])));
    const r = await list({ path: 'many' });
    const lines = r.output.split('\n');
    expect(lines).toHaveLength(402);
    expect(lines[lines.length - 1]).toBe('… 50 more entries; list a subdirectory or lower depth');
  });

  it('says when there is nothing, and refuses escapes', async () => {
    expect((await list({ path: 'node_modules' })).output).toMatch(/no files \(missing, empty, or all ignored/);
    await expect(list({ path: '../' })).rejects.toThrow(/outside the workspace/);
  });
});
