import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { createSandbox } from '../../src/sandbox/create-sandbox.js';
import { sandboxFileOwner } from '../../src/sandbox/ownership.js';
import { prepareWorkspaceOwnership } from '../../src/sandbox/prepare-workspace-ownership.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { packageFile } from '../../src/util/package-file.js';
import { InotifyFeed } from '../../src/workspace/inotify-feed.js';
import { addWorktree, removeWorktree } from '../../src/workspace/worktree.js';
import { treeOfCommitInCopy } from './helpers.js';
import { RecordingFeed } from './recording-feed.js';
import { makeRepo } from '../support/make-repo.js';
import { TempDirs } from '../support/temp-dir.js';

const temp = new TempDirs();
let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await createSandbox({ env: { PATH: process.env.PATH }, log: () => undefined });
});
afterEach(() => temp.cleanup());

/**
 * The sandbox writes the worktree through a bind mount in its own mount namespace, as a uid of
 * its own: inotify watches the inodes, so those writes reach the host's feed like any other.
 */
describe('the tree hash change feed sees what a sandboxed command writes', () => {
  it('edits, a new directory filled at once, a deletion and a rename, each as the full hash sees them', async () => {
    const top = temp.make('gf-feed-sandbox-');
    chmodSync(top, 0o711); // the sandbox uid passes through to the worktree
    const repo = makeRepo(join(top, 'repo'), { 'src/a.js': 'a\n', 'src/b.js': 'b\n', 'README.md': '# r\n' });
    let feed: RecordingFeed | undefined;
    const helper = packageFile('dist/native/inotify-feed');
    const ws = await addWorktree({ repo, path: join(top, 'worktree'), ref: 'main', stateDir: join(top, 'state'), changeFeed: (root) => (feed = new RecordingFeed(new InotifyFeed({ root, helper }))) });
    try {
      await prepareWorkspaceOwnership(ws.root, sandboxFileOwner());
      const run = async (command: string) => {
        const result = await sandbox.run({ command, workspace: ws.root, timeoutMs: 20_000, readOnlyBinds: ws.sandboxBinds });
        expect(result.exitCode).toBe(0);
      };
      await ws.treeHash();
      const steps = [
        'echo changed > src/a.js',
        'mkdir -p lib/x && echo 1 > lib/x/one.js && echo 2 > lib/two.js',
        'rm src/b.js && mv README.md README.txt',
        'printf "same" > lib/x/one.js; touch -d "2001-01-01" lib/x/one.js',
      ];
      for (const step of steps) {
        const before = await ws.treeHash();
        await run(step);
        const after = await ws.treeHash();
        expect(after).not.toBe(before);
        expect(after).toBe(await treeOfCommitInCopy(ws.root, temp.make()));
        expect(feed!.last).toMatchObject({ trusted: true });
      }
    } finally {
      ws.close();
      await removeWorktree(repo, ws.root);
    }
  });
});
