import { execFileSync } from 'node:child_process';
import { chmodSync, linkSync, mkdirSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GitWorkspace } from '../../src/workspace/git-workspace.js';
import { InotifyFeed } from '../../src/workspace/inotify-feed.js';
import { packageFile } from '../../src/util/package-file.js';
import { expectHashSeen, treeOfCommitInCopy } from './helpers.js';
import { RecordingFeed } from './recording-feed.js';
import { makeRepo } from '../support/make-repo.js';
import { TempDirs } from '../support/temp-dir.js';

const temp = new TempDirs();
const open: GitWorkspace[] = [];
afterEach(() => {
  for (const ws of open.splice(0)) ws.close();
  temp.cleanup();
});

const FILES = {
  '.gitignore': 'node_modules/\n*.log\n',
  'src/a.js': 'export const a = 1;\n',
  'src/b.js': 'export const b = 2;\n',
  'src/deep/c.js': 'export const c = 3;\n',
  'lib/d.js': 'export const d = 4;\n',
  'README.md': '# demo\n',
  'node_modules/dep/index.js': 'module.exports = 1;\n',
};

async function watched(maxWatches?: number) {
  const root = makeRepo(temp.make(), FILES);
  // An hour old: only the feed (or the stat check) can tell a change from none.
  execFileSync('sh', ['-c', 'find . -path ./.git -prune -o -exec touch -h -d "1 hour ago" {} +'], { cwd: root });
  let feed: RecordingFeed | undefined;
  const helper = packageFile('dist/native/inotify-feed');
  const ws = await GitWorkspace.open({
    root,
    baseCommit: 'HEAD',
    stateDir: temp.make('gf-state-'),
    changeFeed: (at) => (feed = new RecordingFeed(new InotifyFeed({ root: at, helper, ...(maxWatches === undefined ? {} : { maxWatches }) }))),
  });
  open.push(ws);
  await ws.treeHash(); // the first hash hashes everything and starts the feed
  feed!.reports.length = 0;
  return { root, ws, feed: feed! };
}

/** The hash after `change` must be the tree `git add -A` makes of a copy of the worktree. */
const expectSeen = (ws: GitWorkspace, root: string, change: () => void): Promise<string> => expectHashSeen(ws, root, temp.make(), change);

const sh = (root: string, script: string) => execFileSync('sh', ['-c', script], { cwd: root });

describe('tree hash with the inotify change feed', () => {
  it('looks only at what the feed names: edits, new files, deletions, modes and symlinks give the full hash', async () => {
    const { root, ws, feed } = await watched();
    await expectSeen(ws, root, () => writeFileSync(join(root, 'src/a.js'), 'export const a = 10;\n'));
    expect(feed.last).toMatchObject({ trusted: true });
    expect(feed.last?.trusted && [...feed.last.paths]).toEqual(['src/a.js']);
    // Tracked files whose mode stayed: hashed and their trees rebuilt without git's index code.
    await expectSeen(ws, root, () => {
      writeFileSync(join(root, 'README.md'), '# changed at the root\n');
      writeFileSync(join(root, 'src/deep/c.js'), 'export const c = 30;\n');
      writeFileSync(join(root, 'lib/d.js'), 'export const d = 40;\n');
    });
    await expectSeen(ws, root, () => writeFileSync(join(root, 'src/new.js'), 'new\n'));
    await expectSeen(ws, root, () => unlinkSync(join(root, 'src/b.js')));
    await expectSeen(ws, root, () => chmodSync(join(root, 'lib/d.js'), 0o755));
    await expectSeen(ws, root, () => symlinkSync('a.js', join(root, 'src/link.js')));
    await expectSeen(ws, root, () => rmSync(join(root, 'src/deep'), { recursive: true }));
    // Ignored names are watched in watched directories, and left out.
    writeFileSync(join(root, 'src/debug.log'), 'ignored\n');
    writeFileSync(join(root, 'node_modules/dep/index.js'), 'module.exports = 2;\n');
    expect(await ws.treeHash()).toBe(await treeOfCommitInCopy(root, temp.make()));
    expect(feed.reports.every((r) => r.trusted)).toBe(true);
  });

  it('sees a same-size rewrite whose mtime was put back, in the same second as the hash before', async () => {
    const { root, ws, feed } = await watched();
    for (let round = 0; round < 3; round++) {
      await expectSeen(ws, root, () => sh(root, `cp -p src/a.js ../ref && printf 'export const a = ${round};\\n' > src/a.js && touch -r ../ref src/a.js`));
    }
    expect(feed.reports.every((r) => r.trusted)).toBe(true);
  });

  it('sees a write through a shared mmap (no IN_MODIFY: only the close after the mapping is gone)', async () => {
    const { root, ws, feed } = await watched();
    const script = "import mmap, os\nfd = os.open('src/a.js', os.O_RDWR)\nm = mmap.mmap(fd, 0)\nos.close(fd)\nm[0:6] = b'EXPORT'\nm.close()\n";
    await expectSeen(ws, root, () => execFileSync('python3', ['-c', script], { cwd: root }));
    expect(feed.last).toMatchObject({ trusted: true });
  });

  it('sees a write through a hard link in an ignored, unwatched directory', async () => {
    const { root, ws, feed } = await watched();
    linkSync(join(root, 'src/a.js'), join(root, 'node_modules/alias.js'));
    await ws.treeHash();
    await expectSeen(ws, root, () => writeFileSync(join(root, 'node_modules/alias.js'), 'export const a = "via the link";\n'));
    expect(feed.last).toMatchObject({ trusted: true });
  });

  it('sees a directory created and filled before its watch could be added, and files written in it afterwards', async () => {
    const { root, ws, feed } = await watched();
    await expectSeen(ws, root, () => sh(root, 'mkdir -p pkg/x/y && echo 1 > pkg/x/y/one.js && echo 2 > pkg/x/two.js && mkdir pkg/node_modules && echo 3 > pkg/node_modules/ignored.js'));
    expect(feed.last).toMatchObject({ trusted: true });
    await expectSeen(ws, root, () => writeFileSync(join(root, 'pkg/x/y/one.js'), 'changed\n'));
    await expectSeen(ws, root, () => writeFileSync(join(root, 'pkg/x/y/three.js'), 'three\n'));
    expect(feed.reports.every((r) => r.trusted)).toBe(true);
  });

  it('watches a tracked file inside an ignored directory (git lists that directory file by file)', async () => {
    const root = makeRepo(temp.make(), { 'build/keep.js': 'kept\n', 'a.js': 'a\n' });
    sh(root, 'echo "build/" > .gitignore && echo junk > build/junk.js && git add .gitignore && git -c user.name=t -c user.email=t@e commit -qm ignore');
    const feed = new RecordingFeed(new InotifyFeed({ root, helper: packageFile('dist/native/inotify-feed') }));
    const ws = await GitWorkspace.open({ root, baseCommit: 'HEAD', stateDir: temp.make('gf-state-'), changeFeed: () => feed });
    open.push(ws);
    await ws.treeHash();
    await expectSeen(ws, root, () => writeFileSync(join(root, 'build/keep.js'), 'tracked, in an ignored directory\n'));
    expect(feed.last).toMatchObject({ trusted: true });
  });

  it('takes git\'s blob where the repository\'s attributes convert the bytes (the guessed id is wrong)', async () => {
    const root = makeRepo(temp.make(), { '.gitattributes': '*.txt text eol=lf\n', 'notes/a.txt': 'one\n', 'b.js': 'b\n' });
    const feed = new RecordingFeed(new InotifyFeed({ root, helper: packageFile('dist/native/inotify-feed') }));
    const ws = await GitWorkspace.open({ root, baseCommit: 'HEAD', stateDir: temp.make('gf-state-'), changeFeed: () => feed });
    open.push(ws);
    await ws.treeHash();
    await expectSeen(ws, root, () => writeFileSync(join(root, 'notes/a.txt'), 'one\r\ntwo\r\n'));
    await expectSeen(ws, root, () => writeFileSync(join(root, 'b.js'), 'b2\n'));
    expect(feed.reports.slice(1).every((r) => r.trusted)).toBe(true);
  });

  it('hashes everything when a directory is renamed, and follows the renamed directory afterwards', async () => {
    const { root, ws, feed } = await watched();
    await expectSeen(ws, root, () => renameSync(join(root, 'src'), join(root, 'moved')));
    expect(feed.last).toMatchObject({ trusted: false, reason: expect.stringMatching(/renamed|moved/) });
    await expectSeen(ws, root, () => writeFileSync(join(root, 'moved/a.js'), 'after the rename\n'));
    expect(feed.last).toMatchObject({ trusted: true });
  });

  it('sees a directory swapped for a symlink, and a symlink swapped for a directory', async () => {
    const { root, ws } = await watched();
    const elsewhere = temp.make();
    writeFileSync(join(elsewhere, 'outside.js'), 'outside\n');
    await expectSeen(ws, root, () => {
      rmSync(join(root, 'lib'), { recursive: true });
      symlinkSync(elsewhere, join(root, 'lib'));
    });
    // Writes behind the symlink are not the worktree's.
    writeFileSync(join(elsewhere, 'outside.js'), 'changed outside\n');
    expect(await ws.treeHash()).toBe(await treeOfCommitInCopy(root, temp.make()));
    await expectSeen(ws, root, () => {
      unlinkSync(join(root, 'lib'));
      mkdirSync(join(root, 'lib'));
      writeFileSync(join(root, 'lib/d.js'), 'back as a directory\n');
    });
  });

  it('hashes everything when .gitignore changes, and leaves out what it now ignores', async () => {
    const { root, ws, feed } = await watched();
    writeFileSync(join(root, 'src/build.js'), 'built\n');
    await ws.treeHash();
    await expectSeen(ws, root, () => writeFileSync(join(root, '.gitignore'), 'node_modules/\n*.log\nsrc/build.js\n'));
    expect(feed.last).toMatchObject({ trusted: false, reason: expect.stringMatching(/\.gitignore/) });
  });

  it('hashes everything after the kernel queue overflowed (events lost), then trusts the feed again', async () => {
    const { root, ws, feed } = await watched();
    // The event loop is blocked meanwhile: the helper's pipe fills, then the kernel's queue (16,384 events).
    sh(root, 'i=0; while [ $i -lt 12000 ]; do echo $i >> src/a.js; i=$((i+1)); done; echo last > src/b.js');
    expect(await ws.treeHash()).toBe(await treeOfCommitInCopy(root, temp.make()));
    expect(feed.last).toMatchObject({ trusted: false, reason: expect.stringMatching(/overflow/) });
    await expectSeen(ws, root, () => writeFileSync(join(root, 'lib/d.js'), 'after the overflow\n'));
    expect(feed.last).toMatchObject({ trusted: true });
  });

  it('hashes everything once a repository appears inside the worktree (a submodule: no watch sees its HEAD)', async () => {
    const { root, ws, feed } = await watched();
    await expectSeen(ws, root, () => sh(root, 'mkdir sub && cd sub && git init -q && echo s > s.txt && git add s.txt && git -c user.name=t -c user.email=t@e commit -qm s'));
    await expectSeen(ws, root, () => sh(root, 'cd sub && echo t > t.txt && git add t.txt && git -c user.name=t -c user.email=t@e commit -qm t'));
    expect(feed.last).toMatchObject({ trusted: false, off: true });
  });

  it('hashes everything when a new directory brings its own .gitignore, or a special file appears', async () => {
    const { root, ws, feed } = await watched();
    await expectSeen(ws, root, () => sh(root, 'mkdir -p pkg && printf "*.tmp\\n" > pkg/.gitignore && echo a > pkg/a.tmp && echo b > pkg/b.js'));
    await expectSeen(ws, root, () => sh(root, 'echo c > pkg/c.tmp && echo d > pkg/d.js'));
    expect(feed.last).toMatchObject({ trusted: true });
    await expectSeen(ws, root, () => sh(root, 'mkfifo src/pipe && echo e > src/e.js'));
  });

  it('turns the feed off at the watch limit and hashes everything from then on', async () => {
    const { root, ws, feed } = await watched(4);
    await expectSeen(ws, root, () => writeFileSync(join(root, 'src/a.js'), 'over the limit\n'));
    await expectSeen(ws, root, () => writeFileSync(join(root, 'src/b.js'), 'still over\n'));
    expect(feed.reports.every((r) => !r.trusted && r.off && /too many files/.test(r.reason))).toBe(true);
  });

  it('stops its helper process on close', async () => {
    const { ws } = await watched();
    const pids = () => { try { return execFileSync('pgrep', ['-P', String(process.pid), '-f', 'inotify-feed']).toString(); } catch { return ''; } };
    expect(pids().trim()).not.toBe('');
    ws.close();
    // SIGKILL is sent at once; the process is gone once the kernel has reaped it.
    const deadline = Date.now() + 5_000;
    while (Date.now() < deadline && pids().trim() !== '') await new Promise((resolve) => setTimeout(resolve, 20));
    expect(pids().trim()).toBe('');
  });
});
