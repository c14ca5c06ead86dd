import { createHash } from 'node:crypto';
import { MODE_OFFSET, rebaseLookup, STAT_BYTES, type IndexLookup } from './index-file.js';

/** A tracked file's new content: the blob `git hash-object -w` made of it, and its mode. */
export interface BlobUpdate {
  path: string;
  oid: string;
  mode: number;
}

/** An entry's flags: assume-valid, extended (skip-worktree, intent-to-add), a merge stage. */
const SPECIAL_FLAGS = 0x8000 | 0x4000 | 0x3000;
/** Extensions that record byte offsets of what this edit may move (EOIE, IEOT): not edited. */
const OFFSET_EXTENSIONS = new Set(['EOIE', 'IEOT', 'link', 'sdir']);

interface TreeNode {
  name: Buffer;
  count: number;
  subtrees: number;
  oid: Buffer | undefined;
  children: TreeNode[];
}

/** The trees an edit made, for `git mktree -z --batch` to write (and to check: it must name each as computed). */
export interface BlobEdit {
  /** ls-tree lines (NUL-ended) of each new tree, children before parents, trees separated by an empty line. */
  mktreeInput: string;
  /** The ids computed for them, in the same order. */
  trees: string[];
  /**
   * The edited index (entries and cache tree), a copy: to keep once the trees are in the object
   * store (index-memo.ts). Its last bytes are the checksum as read, until it is written.
   */
  index: IndexLookup;
}

/**
 * Points existing entries at new blobs, as `git update-index` would after hashing them, but with
 * no stat data: a later full refresh re-hashes them, and no stat of theirs can be trusted in a
 * racy second (recent-entries.ts needs not run for them). The trees above each path are rebuilt
 * here, in the cache tree, as `write-tree` would from the index, so it has nothing left to write.
 * Undefined when an entry is missing or flagged, an extension records offsets, or the cache tree
 * does not cover a tree to rebuild (write-tree's work then). `index` itself is never changed.
 */
export function editBlobs(index: IndexLookup, oidBytes: number, updates: readonly BlobUpdate[]): BlobEdit | undefined {
  const entries = updates.map((update) => index.find(update.path));
  if (entries.some((entry) => entry === undefined || (index.data.readUInt16BE(entry.at + STAT_BYTES + oidBytes) & SPECIAL_FLAGS) !== 0)) return undefined;
  const data = Buffer.from(index.data);
  const edited = rebaseLookup(index, data);
  updates.forEach((update, i) => {
    const at = entries[i]!.at;
    data.fill(0, at, at + STAT_BYTES);
    data.writeUInt32BE(update.mode, at + MODE_OFFSET);
    Buffer.from(update.oid, 'hex').copy(data, at + STAT_BYTES);
  });
  const end = data.length - oidBytes;
  let built: { input: string[]; trees: string[] } | undefined;
  let tree: { at: number; old: number; bytes: Buffer } | undefined;
  for (let ext = index.extensionsAt; ext + 8 <= end; ext += 8 + data.readUInt32BE(ext + 4)) {
    const signature = data.toString('latin1', ext, ext + 4);
    if (OFFSET_EXTENSIONS.has(signature)) return undefined;
    if (signature !== 'TREE') continue;
    if (tree !== undefined) return undefined;
    const root = parseTree(data.subarray(ext + 8, ext + 8 + data.readUInt32BE(ext + 4)), oidBytes);
    built = root && rebuild(root, edited, updates.map((update) => update.path), oidBytes);
    if (root === undefined || built === undefined) return undefined;
    tree = { at: ext, old: data.readUInt32BE(ext + 4), bytes: serialise(root) };
  }
  if (built === undefined || tree === undefined) return undefined;
  const trees = { mktreeInput: built.input.join('\0'), trees: built.trees };
  if (tree.bytes.length === tree.old) {
    // As it always is: only ids changed, in trees that had one.
    tree.bytes.copy(data, tree.at + 8);
    return { ...trees, index: edited };
  }
  const header = Buffer.alloc(8);
  header.write('TREE', 0, 'latin1');
  header.writeUInt32BE(tree.bytes.length, 4);
  const image = Buffer.concat([data.subarray(0, tree.at), header, tree.bytes, data.subarray(tree.at + 8 + tree.old)]);
  return { ...trees, index: rebaseLookup(index, image) };
}

function parseTree(content: Buffer, oidBytes: number): TreeNode | undefined {
  let at = 0;
  const parse = (): TreeNode | undefined => {
    const nul = content.indexOf(0, at);
    const space = content.indexOf(0x20, nul);
    const newline = content.indexOf(0x0a, space);
    if (nul < 0 || space < 0 || newline < 0) return undefined;
    const node: TreeNode = { name: content.subarray(at, nul), count: Number(content.toString('latin1', nul + 1, space)), subtrees: Number(content.toString('latin1', space + 1, newline)), oid: undefined, children: [] };
    if (!Number.isInteger(node.count) || !Number.isInteger(node.subtrees) || node.subtrees < 0) return undefined;
    at = newline + 1;
    if (node.count >= 0) {
      node.oid = content.subarray(at, at + oidBytes);
      at += oidBytes;
    }
    for (let i = 0; i < node.subtrees; i++) {
      const child = parse();
      if (child === undefined) return undefined;
      node.children.push(child);
    }
    return node;
  };
  const root = parse();
  return root !== undefined && at === content.length ? root : undefined;
}

function serialise(root: TreeNode): Buffer {
  const out: Buffer[] = [];
  const write = (node: TreeNode) => {
    out.push(node.name, Buffer.from(`\0${node.count} ${node.subtrees}\n`, 'latin1'));
    if (node.oid !== undefined) out.push(node.oid);
    node.children.forEach(write);
  };
  write(root);
  return Buffer.concat(out);
}

/**
 * Recomputes, deepest first, every tree above `paths` from the index entries it covers and its
 * subtrees' ids, as git's cache-tree update does: a tree's direct files, then each subtree in
 * one step of its entry count. Undefined when a tree on the way is not valid or the counts disagree.
 */
function rebuild(root: TreeNode, index: IndexLookup, paths: readonly string[], oidBytes: number): { input: string[]; trees: string[] } | undefined {
  const dirty = new Map<TreeNode, string>([[root, '']]);
  for (const path of paths) {
    let node = root;
    let prefix = '';
    for (const name of path.split('/').slice(0, -1)) {
      const child = node.children.find((c) => c.name.toString('utf8') === name);
      if (child === undefined) return undefined;
      prefix += `${name}/`;
      dirty.set(child, prefix);
      node = child;
    }
  }
  const input: string[] = [];
  const trees: string[] = [];
  const visit = (node: TreeNode): boolean => {
    for (const child of node.children) if (dirty.has(child) && !visit(child)) return false;
    const made = treeOf(node, dirty.get(node)!, index, oidBytes);
    if (made === undefined) return false;
    node.oid = made.oid;
    input.push(`${made.lines.join('')}`);
    trees.push(made.oid.toString('hex'));
    return true;
  };
  return visit(root) ? { input, trees } : undefined;
}

function treeOf(node: TreeNode, prefix: string, index: IndexLookup, oidBytes: number): { oid: Buffer; lines: string[] } | undefined {
  if (node.count < 0 || node.children.some((child) => child.oid === undefined)) return undefined;
  const { data, entries } = index;
  const items: Array<{ key: Buffer; mode: number; name: Buffer; oid: Buffer }> = [];
  const start = index.lowerBound(Buffer.from(prefix, 'utf8'));
  let i = start;
  while (i < start + node.count) {
    const entry = entries[i];
    if (entry === undefined) return undefined;
    const rest = data.subarray(entry.nameStart + Buffer.byteLength(prefix), entry.nameEnd);
    const slash = rest.indexOf(0x2f);
    if (slash < 0) {
      items.push({ key: rest, mode: data.readUInt32BE(entry.at + MODE_OFFSET), name: rest, oid: data.subarray(entry.at + STAT_BYTES, entry.at + STAT_BYTES + oidBytes) });
      i += 1;
      continue;
    }
    const name = rest.subarray(0, slash);
    const child = node.children.find((c) => c.name.equals(name));
    if (child === undefined || child.count <= 0) return undefined;
    items.push({ key: Buffer.concat([name, Buffer.from('/')]), mode: 0o40000, name, oid: child.oid! });
    i += child.count;
  }
  if (i !== start + node.count || items.filter((item) => item.mode === 0o40000).length !== node.children.length) return undefined;
  items.sort((a, b) => Buffer.compare(a.key, b.key));
  const raw = Buffer.concat(items.flatMap((item) => [Buffer.from(`${item.mode.toString(8)} `, 'latin1'), item.name, Buffer.from([0]), item.oid]));
  const oid = createHash(oidBytes === 32 ? 'sha256' : 'sha1').update(`tree ${raw.length}\0`).update(raw).digest();
  const type = (mode: number) => (mode === 0o40000 ? 'tree' : mode === 0o160000 ? 'commit' : 'blob');
  const lines = items.map((item) => `${item.mode.toString(8).padStart(6, '0')} ${type(item.mode)} ${item.oid.toString('hex')}\t${item.name.toString('utf8')}\0`);
  return { oid, lines };
}
