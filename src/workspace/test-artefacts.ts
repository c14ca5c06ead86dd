import type { EntryMap } from './index-entries.js';
import { diffEntries, inEffect, nextSetAside, type SetAside } from './set-aside.js';

/**
 * Test artefacts (DESIGN §3.2): paths a test run writes that are not the repository's sources —
 * a log, a coverage summary, a snapshot or cache not in .gitignore. Once a test run created one,
 * it is an artefact for the rest of the fix, whatever later runs write into it: it never voids
 * verification and never enters the tree hash or the commit, until the agent edits it itself
 * (edit_file / write_file: `release`). Keys are git's quoted paths, as in EntryMap.
 */
export type Artefacts = Set<string>;

export interface TestRunSplit {
  setAside: SetAside;
  artefacts: Artefacts;
  /** Paths that existed before the run and that it changed or removed, artefacts excluded: these void it. */
  changed: string[];
  /** Artefacts this run wrote (created, changed or removed). */
  written: string[];
  /** Artefacts this run made for the first time (what the model is told, once). */
  first: string[];
}

/**
 * What a test run did, sorted into artefacts and real changes. A path can become an artefact only
 * if the base commit does not have it and the agent did not make it: created by this run, an
 * artefact already, or a leftover of setup or of an earlier run still as that left it. A base
 * file changed by the tests, or a file the agent wrote, stays a change (and voids the run).
 */
export function splitTestRun(prev: { setAside: SetAside; artefacts: Artefacts }, base: EntryMap, before: EntryMap, after: EntryMap): TestRunSplit {
  const { created, changed } = diffEntries(before, after);
  const leftover = (path: string) => prev.setAside.has(path) && inEffect(prev.setAside.get(path) ?? null, before.get(path));
  const candidate = (path: string) => !base.has(path) && (!before.has(path) || prev.artefacts.has(path) || leftover(path));
  const artefacts = new Set(prev.artefacts);
  const written: string[] = [];
  const first: string[] = [];
  for (const path of [...created, ...changed]) {
    if (!candidate(path)) continue;
    written.push(path);
    if (!artefacts.has(path)) first.push(path);
    artefacts.add(path);
  }
  const setAside = nextSetAside(prev.setAside, before, after, 'created');
  for (const path of artefacts) setAside.delete(path);
  return { setAside, artefacts, changed: changed.filter((p) => !artefacts.has(p)), written: written.sort(), first: first.sort() };
}

/** `update-index --index-info` lines that drop every artefact present from the hashed index. */
export function artefactLines(artefacts: Artefacts, current: EntryMap, zeroOid: string): string[] {
  return [...artefacts].filter((path) => current.has(path)).map((path) => `0 ${zeroOid}\t${path}`);
}
