import { execFileSync } from 'node:child_process';
import { linkSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GitWorkspace } from '../../src/workspace/git-workspace.js';
import { InotifyFeed } from '../../src/workspace/inotify-feed.js';
import { packageFile } from '../../src/util/package-file.js';
import { expectHashSeen, treeOfCommitInCopy } from './helpers.js';
import { RecordingFeed } from './recording-feed.js';
import { makeRepo } from '../support/make-repo.js';
import { TempDirs } from '../support/temp-dir.js';
import { until } from '../support/processes.js';

const temp = new TempDirs();
const open: GitWorkspace[] = [];
afterEach(() => {
  for (const ws of open.splice(0)) ws.close();
  temp.cleanup();
});

async function watched(files: Record<string, string>, stateDir = temp.make('gf-state-')) {
  const root = makeRepo(temp.make(), files);
  execFileSync('sh', ['-c', 'find . -path ./.git -prune -o -exec touch -h -d "1 hour ago" {} +'], { cwd: root });
  const feed = new RecordingFeed(new InotifyFeed({ root, helper: packageFile('dist/native/inotify-feed') }));
  const ws = await GitWorkspace.open({ root, baseCommit: 'HEAD', stateDir, changeFeed: () => feed });
  open.push(ws);
  await ws.treeHash(); // the first hash hashes everything and starts the feed
  feed.reports.length = 0;
  feed.watchedFiles.length = 0;
  return { root, ws, feed, stateDir };
}

/** The hash after `change` must be the tree `git add -A` makes of a copy of the worktree. */
const expectSeen = (ws: GitWorkspace, root: string, change: () => void): Promise<string> => expectHashSeen(ws, root, temp.make(), change);

const FILES = { '.gitignore': 'node_modules/\n', 'src/a.js': 'a\n', 'src/b.js': 'b\n', 'notes/a.txt': 'one\n', 'node_modules/dep.js': 'dep\n' };
const sh = (root: string, script: string) => execFileSync('sh', ['-c', script], { cwd: root });
/** This process's running gits (hash-object, mktree), one pid a line. */
const gits = () => { try { return execFileSync('pgrep', ['-P', String(process.pid), '-f', 'hash-object|mktree']).toString(); } catch { return ''; } };


describe('the change feed\'s shortcuts, and where they must not be taken', () => {
  it('asks the helper to watch a file only when an event of its directory named it: a write keeps the watch, a rename brings another inode', async () => {
    const { root, ws, feed } = await watched(FILES);
    await expectSeen(ws, root, () => writeFileSync(join(root, 'src/a.js'), 'written in place\n'));
    expect(feed.last).toMatchObject({ trusted: true, paths: new Set(['src/a.js']), named: new Set() });
    expect(feed.watchedFiles.at(-1)).toEqual([]);
    // Another inode under the name, with a second name in an ignored (unwatched) directory.
    await expectSeen(ws, root, () => {
      writeFileSync(join(root, 'node_modules/alias.js'), 'the new inode\n');
      linkSync(join(root, 'node_modules/alias.js'), join(root, 'src/a.tmp'));
      renameSync(join(root, 'src/a.tmp'), join(root, 'src/a.js'));
    });
    expect(feed.last).toMatchObject({ trusted: true, named: new Set(['src/a.tmp', 'src/a.js']) });
    expect(feed.watchedFiles.at(-1)).toEqual(['src/a.js']);
    // Seen only if the new inode was watched: nothing in a watched directory changed.
    await expectSeen(ws, root, () => writeFileSync(join(root, 'node_modules/alias.js'), 'through the other name\n'));
    expect(feed.last).toMatchObject({ trusted: true, paths: new Set(['src/a.js']), named: new Set() });
  });

  it('starts the running gits afresh when the repository\'s config changes (core.autocrlf)', async () => {
    const { root, ws, feed } = await watched(FILES);
    await expectSeen(ws, root, () => writeFileSync(join(root, 'src/a.js'), 'crlf\r\nkept\r\n'));
    sh(root, 'git config core.autocrlf input');
    await expectSeen(ws, root, () => writeFileSync(join(root, 'src/a.js'), 'crlf\r\nnow converted\r\n'));
    expect(feed.reports.every((r) => r.trusted)).toBe(true);
  });

  it('starts the running gits afresh when info/attributes changes', async () => {
    const { root, ws, feed } = await watched(FILES);
    await expectSeen(ws, root, () => writeFileSync(join(root, 'notes/a.txt'), 'one\r\n'));
    sh(root, 'mkdir -p .git/info && echo "*.txt text eol=lf" > .git/info/attributes');
    await expectSeen(ws, root, () => writeFileSync(join(root, 'notes/a.txt'), 'two\r\n'));
    expect(feed.reports.every((r) => r.trusted)).toBe(true);
  });

  it('starts the running gits afresh after the feed could not vouch (the root .gitattributes, read once by a running git, changed)', async () => {
    const { root, ws, feed } = await watched(FILES);
    await expectSeen(ws, root, () => writeFileSync(join(root, 'notes/a.txt'), 'one\r\n'));
    await expectSeen(ws, root, () => writeFileSync(join(root, '.gitattributes'), '*.txt text eol=lf\n'));
    expect(feed.last).toMatchObject({ trusted: false, reason: expect.stringMatching(/\.gitattributes/) });
    await expectSeen(ws, root, () => writeFileSync(join(root, 'notes/a.txt'), 'two\r\n'));
    expect(feed.last).toMatchObject({ trusted: true });
  });

  it('writes the index kept in memory before git reads it, and a workspace reopened on its state hashes the same', async () => {
    const { root, ws, feed, stateDir } = await watched(FILES);
    await expectSeen(ws, root, () => writeFileSync(join(root, 'src/a.js'), 'edited in memory\n'));
    // The snapshots list the private index with git: a.js must not count as changed by the action.
    const observed = await ws.observe(async () => writeFileSync(join(root, 'src/b.js'), 'by the action\n'), 'created');
    expect(observed.changed).toEqual(['src/b.js']);
    await expectSeen(ws, root, () => writeFileSync(join(root, 'src/a.js'), 'edited again\n'));
    expect(feed.reports.every((r) => r.trusted)).toBe(true);
    // As after a crash: the file still holds the index before the last edit, then after close.
    const reopened = await GitWorkspace.open({ root, baseCommit: 'HEAD', stateDir });
    expect(await reopened.treeHash()).toBe(await treeOfCommitInCopy(root, temp.make()));
    ws.close();
    const again = await GitWorkspace.open({ root, baseCommit: 'HEAD', stateDir });
    expect(await again.treeHash()).toBe(await treeOfCommitInCopy(root, temp.make()));
  });

  it('leaves a name ending in a carriage return to git (hash-object --stdin-paths would read the name without it)', async () => {
    const { root, ws, feed } = await watched({ ...FILES, 'src/x\r': 'with the carriage return\n', 'src/x': 'without\n' });
    await expectSeen(ws, root, () => writeFileSync(join(root, 'src/x\r'), 'changed, with the carriage return\n'));
    expect(feed.last).toMatchObject({ trusted: true });
  });

  it('starts a running git again when it was killed between hashes', async () => {
    const { root, ws, feed } = await watched(FILES);
    await expectSeen(ws, root, () => writeFileSync(join(root, 'src/a.js'), 'hashed by the running gits\n'));
    for (const pid of gits().trim().split('\n')) process.kill(Number(pid), 'SIGKILL');
    await until(() => gits().trim() === '', 'the killed gits to go', 5_000);
    await expectSeen(ws, root, () => writeFileSync(join(root, 'src/a.js'), 'hashed by new ones\n'));
    expect(feed.reports.every((r) => r.trusted)).toBe(true);
  });

  it('stops its gits on close', async () => {
    const { root, ws } = await watched(FILES);
    await expectSeen(ws, root, () => writeFileSync(join(root, 'src/a.js'), 'hashed by the running gits\n'));
    expect(gits().trim().split('\n')).toHaveLength(2);
    ws.close();
    await until(() => gits().trim() === '', 'the closed feed\'s gits to go', 5_000);
  });
});
