import type { EntryMap } from './index-entries.js';

/**
 * Paths left out of the tree hash and the commit (DESIGN §3.2): quoted path → the entry an observed
 * action left there ("<mode> <oid>"), or null when it deleted the path. A path counts as set aside
 * only while its current entry still equals the recorded one; an edit afterwards brings it back in.
 */
export type SetAside = Map<string, string | null>;

export function inEffect(recorded: string | null, current: string | undefined): boolean {
  return (current ?? null) === recorded;
}

/** Paths new in `after`, and paths of `before` that differ or are gone; both sorted. */
export function diffEntries(before: EntryMap, after: EntryMap): { created: string[]; changed: string[] } {
  const created = [...after.keys()].filter((p) => !before.has(p)).sort();
  const changed = [...before.keys()].filter((p) => before.get(p) !== after.get(p)).sort();
  return { created, changed };
}

/**
 * The set-aside map after an observed action. Entries the agent edited before the action are
 * dropped (they are part of the change now). Created paths are always set aside; changed ones
 * under 'all', or when they were set aside already (a second test run rewriting its own cache).
 */
export function nextSetAside(
  prev: SetAside,
  before: EntryMap,
  after: EntryMap,
  mode: 'created' | 'all',
): SetAside {
  const next: SetAside = new Map();
  for (const [path, recorded] of prev) if (inEffect(recorded, before.get(path))) next.set(path, recorded);
  const { created, changed } = diffEntries(before, after);
  for (const path of created) next.set(path, after.get(path) ?? null);
  for (const path of changed) {
    if (mode === 'all' || next.has(path)) next.set(path, after.get(path) ?? null);
  }
  return next;
}

/**
 * `update-index --index-info` lines that put the base commit's entry back for every set-aside
 * path still in effect (mode 0 removes a path the base does not have).
 */
export function overrideLines(setAside: SetAside, current: EntryMap, base: EntryMap, zeroOid: string): string[] {
  const lines: string[] = [];
  for (const [path, recorded] of setAside) {
    const now = current.get(path);
    if (!inEffect(recorded, now)) continue;
    const original = base.get(path);
    if (original === now) continue;
    lines.push(original === undefined ? `0 ${zeroOid}\t${path}` : `${original}\t${path}`);
  }
  return lines;
}
