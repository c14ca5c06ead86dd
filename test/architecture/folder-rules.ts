/** What a folder under `src/` may import, as docs/architecture.md's table says. */
export interface FolderRule {
  folder: string;
  /** Folders it may import at run time (and as types). */
  imports: Set<string>;
  /** Folders it may import types from (`config (types)` in the table): type-only imports, or anything of the folder's `types.ts`, its vocabulary. */
  typesOnly: Set<string>;
}

/**
 * Reads the "may import" table: rows `| \`name/\` | owns | may import |`, in table order; the last
 * cell lists folders (`—` for none, `everything below` for all later rows), a folder followed by
 * `(types…)` may be imported as types only.
 */
export function folderRules(markdown: string): FolderRule[] {
  const rows = markdown
    .split('\n')
    .map((line) => /^\|\s*`([a-z-]+)\/`\s*\|.*\|\s*([^|]*?)\s*\|\s*$/.exec(line))
    .flatMap((m) => (m?.[1] && m[2] !== undefined ? [{ folder: m[1], cell: m[2] }] : []));
  return rows.map(({ folder, cell }, i) => {
    const imports = new Set<string>();
    const typesOnly = new Set<string>();
    if (cell.trim() === 'everything below') for (const later of rows.slice(i + 1)) imports.add(later.folder);
    for (const item of cell.replace(/\([^)]*\)/g, (group) => (group.startsWith('(types') ? '(types)' : '')).split(',')) {
      const m = /^\s*([a-z-]+)\s*(\(types\))?\s*$/.exec(item);
      if (!m?.[1] || m[1] === 'everything') continue;
      (m[2] ? typesOnly : imports).add(m[1]);
    }
    return { folder, imports, typesOnly };
  });
}
