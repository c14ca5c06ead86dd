/**
 * What a path is in an index or a tree: "<mode> <oid>". Mode is part of it, so `chmod +x` counts
 * as a change. Keys are git's quoted paths (see git-path.ts).
 */
export type EntryMap = Map<string, string>;

/** Parses `git ls-files -s` (stage 0 only; conflicts cannot occur in a private index). */
export function parseLsFiles(output: string): EntryMap {
  const map: EntryMap = new Map();
  for (const line of output.split('\n')) {
    const tab = line.indexOf('\t');
    if (tab < 0) continue;
    const [mode, oid] = line.slice(0, tab).split(' ');
    if (mode && oid) map.set(line.slice(tab + 1), `${mode} ${oid}`);
  }
  return map;
}

/** Parses `git ls-tree -r` ("<mode> <type> <oid>\t<path>"). */
export function parseLsTree(output: string): EntryMap {
  const map: EntryMap = new Map();
  for (const line of output.split('\n')) {
    const tab = line.indexOf('\t');
    if (tab < 0) continue;
    const [mode, , oid] = line.slice(0, tab).split(' ');
    if (mode && oid) map.set(line.slice(tab + 1), `${mode} ${oid}`);
  }
  return map;
}
