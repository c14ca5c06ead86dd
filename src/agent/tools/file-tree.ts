/** Shapes a flat list of file paths into an indented, depth-limited tree. */

interface Dir {
  dirs: Map<string, Dir>;
  files: string[];
  count: number;
}

const newDir = (): Dir => ({ dirs: new Map(), files: [], count: 0 });

export function buildTree(paths: readonly string[]): Dir {
  const root = newDir();
  for (const p of paths) {
    const parts = p.split('/');
    const file = parts.pop()!;
    let dir = root;
    dir.count++;
    for (const part of parts) {
      let next = dir.dirs.get(part);
      if (!next) dir.dirs.set(part, (next = newDir()));
      dir = next;
      dir.count++;
    }
    dir.files.push(file);
  }
  return root;
}

/** Lines of the tree: directories first (marked `/`), those at the depth limit with their file count. */
export function renderTree(dir: Dir, depth: number, indent = ''): string[] {
  const lines: string[] = [];
  for (const [name, sub] of [...dir.dirs].sort(([a], [b]) => a.localeCompare(b))) {
    if (depth <= 1) {
      lines.push(`${indent}${name}/ (${sub.count} files)`);
      continue;
    }
    lines.push(`${indent}${name}/`);
    lines.push(...renderTree(sub, depth - 1, `${indent}  `));
  }
  for (const f of [...dir.files].sort((a, b) => a.localeCompare(b))) lines.push(`${indent}${f}`);
  return lines;
}
