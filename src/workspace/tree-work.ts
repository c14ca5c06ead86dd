import { rmSync } from 'node:fs';
import { ThreadClient, threadScript, type WireError } from '../util/thread-rpc.js';
import { linkTree, LinkTreeError, type LinkTreeOptions } from './link-tree.js';
import { restoreKept, stageKept, type KeptPlaced, type RestoreKeptOptions } from './restore-kept.js';
import { copyTreeNoFollow, TreeCopyError, type TreeCopyOptions, type TreeCopyRefusal, type TreeCopyStats } from './safe-tree-copy.js';
import { treeManifest, type TreeManifest } from './tree-manifest.js';

/**
 * The tree thread, one per process, started by the first call: a job's whole-tree work — copying
 * what setup left, storing and linking dependency cache entries, their manifests (every file
 * read and hashed), filling and removing a clean room, staging the next one's setup state — is
 * thousands of synchronous file system calls, and on the event loop it stopped every webhook
 * answer for as long (docs/decisions.md
 * "Whole trees are copied, linked and hashed off the event loop"). Run from TypeScript sources (the
 * test runner) there is no script for it, and the work runs on the calling thread.
 */
const script = threadScript(import.meta.url, 'workspace/tree-thread.js');
const thread = script ? new ThreadClient(script, reviveTreeError) : undefined;

/** The tree thread's methods: tree-thread.ts serves these, and the same run here without it. */
export const treeMethods = {
  copyTree: (a: { srcParent: string; dstParent: string; name: string; options: TreeCopyOptions }): TreeCopyStats => copyTreeNoFollow(a.srcParent, a.dstParent, a.name, a.options),
  linkTree: (a: { srcRoot: string; dstRoot: string; names: readonly string[]; options: LinkTreeOptions }): { files: number } => linkTree(a.srcRoot, a.dstRoot, a.names, a.options),
  manifest: (a: { root: string; names: readonly string[] }): TreeManifest => treeManifest(a.root, a.names),
  removeTree: (a: { path: string }): void => rmSync(a.path, { recursive: true, force: true }),
  restoreKept: (a: RestoreKeptOptions): KeptPlaced => restoreKept(a),
  stageKept: (a: Omit<RestoreKeptOptions, 'staged'>): Record<string, number> => stageKept(a),
};

type Methods = typeof treeMethods;

async function call<K extends keyof Methods>(method: K, args: Parameters<Methods[K]>[0]): Promise<ReturnType<Methods[K]>> {
  if (!thread) return (treeMethods[method] as (a: typeof args) => ReturnType<Methods[K]>)(args);
  return (await thread.call(method, args)) as ReturnType<Methods[K]>;
}

/** `copyTreeNoFollow` on the tree thread (its TreeCopyError comes back as one). */
export const copyTreeOffLoop = (srcParent: string, dstParent: string, name: string, options: TreeCopyOptions) => call('copyTree', { srcParent, dstParent, name, options });
/** `linkTree` on the tree thread (its LinkTreeError comes back as one). */
export const linkTreeOffLoop = (srcRoot: string, dstRoot: string, names: readonly string[], options: LinkTreeOptions) => call('linkTree', { srcRoot, dstRoot, names, options });
/** `treeManifest` on the tree thread. */
export const treeManifestOffLoop = (root: string, names: readonly string[]) => call('manifest', { root, names });
/** `rm -rf` on the tree thread. */
export const removeTreeOffLoop = (path: string) => call('removeTree', { path });
/** `restoreKept` on the tree thread. */
export const restoreKeptOffLoop = (options: RestoreKeptOptions) => call('restoreKept', options);
/** `stageKept` on the tree thread. */
export const stageKeptOffLoop = (options: Omit<RestoreKeptOptions, 'staged'>) => call('stageKept', options);

function reviveTreeError(w: WireError): Error | null {
  const { reason, path } = w.fields;
  if (typeof reason !== 'string') return null;
  if (w.name === 'TreeCopyError' && typeof path === 'string') return new TreeCopyError(reason as TreeCopyRefusal, path, w.message);
  if (w.name === 'LinkTreeError') return new LinkTreeError(reason as LinkTreeError['reason'], w.message);
  return null;
}
