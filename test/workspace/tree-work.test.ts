import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runProcess } from '../../src/util/run-process.js';
import { treeManifest } from '../../src/workspace/tree-manifest.js';
import * as source from '../../src/workspace/tree-work.js';
import { TempDirs } from '../support/temp-dir.js';

/** The compiled module (`npm test` builds first): only there does the work run on the tree thread. */
const DIST = resolve('dist/src/workspace');
type TreeWork = typeof source;
interface Loaded {
  work: TreeWork;
  TreeCopyError: new (...args: never[]) => Error;
  LinkTreeError: new (...args: never[]) => Error;
}
const load = async (dir: string): Promise<Loaded> => {
  const url = (file: string) => pathToFileURL(join(dir, file)).href;
  const work = (await import(url('tree-work.js'))) as TreeWork;
  const { TreeCopyError } = (await import(url('safe-tree-copy.js'))) as { TreeCopyError: Loaded['TreeCopyError'] };
  const { LinkTreeError } = (await import(url('link-tree.js'))) as { LinkTreeError: Loaded['LinkTreeError'] };
  return { work, TreeCopyError, LinkTreeError };
};

const temp = new TempDirs();
afterEach(() => temp.cleanup());

function sampleTree(root: string): void {
  mkdirSync(join(root, 'node_modules', 'a', 'lib'), { recursive: true });
  writeFileSync(join(root, 'node_modules', 'a', 'index.js'), 'module.exports = 1;\n');
  writeFileSync(join(root, 'node_modules', 'a', 'lib', 'b.js'), 'x'.repeat(5000));
}

describe.each([
  ['on the calling thread (TypeScript sources)', resolve('src/workspace')],
  ['on the tree thread (compiled)', DIST],
])('whole-tree work %s', (how, dir) => {
  let t: Loaded;
  beforeAll(async () => {
    if (how.includes('compiled') && !existsSync(join(DIST, 'tree-thread.js'))) throw new Error(`${DIST}/tree-thread.js is missing: run npm run build first`);
    t = dir === DIST ? await load(dir) : { work: source, TreeCopyError: (await import('../../src/workspace/safe-tree-copy.js')).TreeCopyError, LinkTreeError: (await import('../../src/workspace/link-tree.js')).LinkTreeError };
  });

  it('copies, hashes and removes a tree as the synchronous functions do', async () => {
    const src = temp.make('gf-tree-src-');
    const dst = temp.make('gf-tree-dst-');
    sampleTree(src);
    const stats = await t.work.copyTreeOffLoop(src, dst, 'node_modules', { expectOwner: process.getuid!(), maxBytes: 1e9, fileMode: 0o755 });
    expect(stats).toEqual({ files: 2, bytes: 5020 });
    expect(readFileSync(join(dst, 'node_modules', 'a', 'lib', 'b.js'), 'utf8')).toBe('x'.repeat(5000));
    expect(await t.work.treeManifestOffLoop(dst, ['node_modules'])).toEqual(treeManifest(dst, ['node_modules']));
    await t.work.removeTreeOffLoop(join(dst, 'node_modules'));
    expect(existsSync(join(dst, 'node_modules'))).toBe(false);
  });

  it('refuses a FIFO with the same TreeCopyError, reason and path', async () => {
    const src = temp.make('gf-tree-src-');
    const dst = temp.make('gf-tree-dst-');
    sampleTree(src);
    await runProcess({ argv: ['mkfifo', join(src, 'node_modules', 'a', 'pipe')], cwd: '/', env: { PATH: '/usr/bin:/bin' }, timeoutMs: 10_000 });
    const refused = await t.work.copyTreeOffLoop(src, dst, 'node_modules', { expectOwner: process.getuid!(), maxBytes: 1e9 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(t.TreeCopyError);
    expect(refused).toMatchObject({ reason: 'special-file', path: expect.stringContaining('pipe') });
  });

  it("refuses a link whose shape differs from the manifest with the same LinkTreeError 'differs'", async () => {
    const src = temp.make('gf-tree-src-');
    const dst = temp.make('gf-tree-dst-');
    sampleTree(src);
    const uid = process.getuid!();
    const manifest = treeManifest(src, ['node_modules']).text.replace('5000', '5001');
    const refused = await t.work.linkTreeOffLoop(src, dst, ['node_modules'], { sourceOwner: uid, dirOwner: { uid, gid: process.getgid!() }, manifest }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(t.LinkTreeError);
    expect(refused).toMatchObject({ reason: 'differs' });
  });
});
