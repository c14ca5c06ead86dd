import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git } from '../../src/workspace/git.js';
import { addWorktree } from '../../src/workspace/worktree.js';
import { IDENTITY, rev } from './helpers.js';
import { TempDirs } from '../support/temp-dir.js';
import { writeFiles } from '../support/make-repo.js';

const temp = new TempDirs();
afterEach(() => temp.cleanup());

/**
 * The attack: a repository's `.gitattributes` selects `filter=evil`, and a driver for it is
 * defined where the host's git would find it. The driver writes a marker file: if it exists, a
 * command ran in greenfix's unsandboxed process.
 */
function evilDriver(marker: string): string {
  return (
    '[filter "evil"]\n' +
    `\tclean = "sh -c 'echo clean >> ${marker}; cat'"\n` +
    `\tsmudge = "sh -c 'echo smudge >> ${marker}; cat'"\n` +
    '\trequired = true\n' +
    '[core]\n' +
    `\thooksPath = ${marker}.hooks\n`
  );
}

async function attributedRepo(dir: string): Promise<{ repo: string; base: string }> {
  const repo = join(dir, 'repo');
  // Plain git (no greenfix config) makes the repository, without any driver configured.
  await git(['init', '-q', '-b', 'main', repo], { cwd: dir });
  writeFiles(repo, { '.gitattributes': '* filter=evil\n', 'a.txt': 'a\n' });
  await git(['add', '-A'], { cwd: repo });
  await git([...IDENTITY, 'commit', '-q', '-m', 'base'], { cwd: repo });
  return { repo, base: await rev(repo, 'HEAD') };
}

async function checkoutAndHash(repo: string, base: string, dir: string): Promise<string> {
  const ws = await addWorktree({ repo, path: join(dir, 'wt'), ref: base, stateDir: join(dir, 'state') });
  writeFileSync(join(ws.root, 'b.txt'), 'b\n');
  return ws.treeHash();
}

describe('host-side git runs only greenfix configuration', () => {
  it("never runs a filter driver from the host's global git config ($HOME/.gitconfig), at checkout or tree hash", async () => {
    const dir = temp.make();
    const { repo, base } = await attributedRepo(dir);
    const home = temp.make('gf-home-');
    const marker = join(dir, 'ran');
    writeFileSync(join(home, '.gitconfig'), evilDriver(marker));
    const savedHome = process.env.HOME;
    process.env.HOME = home;
    try {
      const tree = await checkoutAndHash(repo, base, dir);
      expect(existsSync(marker) ? readFileSync(marker, 'utf8') : '').toBe('');
      // Without the filter, the tree hash is the plain content: a.txt + b.txt + .gitattributes.
      const expected = await git(['mktree'], {
        cwd: repo,
        input: (await git(['ls-tree', base], { cwd: repo })) + `100644 blob ${(await git(['hash-object', '-w', '--stdin'], { cwd: repo, input: 'b\n' })).trim()}\tb.txt\n`,
      });
      expect(tree).toBe(expected.trim());
    } finally {
      process.env.HOME = savedHome;
    }
  });

  it("never runs a filter driver or hook defined in the repository's own config (local mode)", async () => {
    const dir = temp.make();
    const { repo, base } = await attributedRepo(dir);
    const marker = join(dir, 'ran');
    const config = join(repo, '.git', 'config');
    writeFileSync(config, readFileSync(config, 'utf8') + evilDriver(marker));
    writeFiles(`${marker}.hooks`, { 'post-checkout': `#!/bin/sh\necho hook >> ${marker}\n` });
    chmodSync(join(`${marker}.hooks`, 'post-checkout'), 0o755);
    const tree = await checkoutAndHash(repo, base, dir);
    expect(existsSync(marker) ? readFileSync(marker, 'utf8') : '').toBe('');
    expect(tree).toMatch(/^[0-9a-f]{40}$/);
    expect(readFileSync(join(dir, 'wt', 'a.txt'), 'utf8')).toBe('a\n');
  });

  it('passes no global or system configuration to any git child', async () => {
    const dir = temp.make();
    await git(['init', '-q', dir], { cwd: dir });
    const seen = await git(['-c', 'alias.env=!env', 'env'], { cwd: dir });
    expect(seen).toContain('GIT_CONFIG_GLOBAL=/dev/null');
    expect(seen).toContain('GIT_ATTR_NOSYSTEM=1');
  });
});
