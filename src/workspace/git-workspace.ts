import { chmodSync, copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ReadOnlyBind } from '../sandbox/types.js';
import { git } from './git.js';
import { displayPath } from './git-path.js';
import { parseLsTree, type EntryMap } from './index-entries.js';
import {
  listPrivateIndex,
  refreshPrivateIndex,
  runIn,
  seedPrivateIndex,
  type RepoHandle,
} from './private-index.js';
import { neutralFilterEnv } from './neutral-filters.js';
import type { ChangeFeed } from './change-feed.js';
import { refreshWithFeed } from './feed-refresh.js';
import { ObjectBatches } from './object-batches.js';
import { IndexMemo } from './index-memo.js';
import { makeSandboxGitView } from './sandbox-git-view.js';
import { Serial } from './serial.js';
import { diffEntries, nextSetAside, overrideLines } from './set-aside.js';
import { artefactLines, splitTestRun } from './test-artefacts.js';
import { fileWorkspaceStore, type WorkspaceState, type WorkspaceStateStore } from './workspace-state.js';
import type { ObservableWorkspace, Observed } from './types.js';
import type { FileOwner } from '../sandbox/ownership.js';
import { isWithin } from '../sandbox/app-dirs.js';
import { cleanRoomDir, openCleanRoom, outsideTree, type CleanRoom } from './clean-room.js';
import { RoomStaging, type CleanRoomStaging } from './room-staging.js';
import { keepSetupState, type SetupStateManifest } from './setup-state.js';

export interface GitWorkspaceOptions {
  root: string;
  /** Any commit-ish; resolved to a full oid once. */
  baseCommit: string;
  /** greenfix's own directory for this workspace (its private index), outside the worktree and the sandbox. */
  stateDir: string;
  /** Where the repository's object store must lie (realpath), e.g. `<workdir>/mirrors`; see sandbox-git-view.ts. */
  objectsWithin?: string;
  /**
   * The worktree's git dir as the repository's own bookkeeping names it (addWorktree); default:
   * asked of the worktree, which is only safe before any untrusted code ran in it.
   */
  gitDir?: string;
  /** Where the pinned git dir and the set-aside paths are kept; default `workspace.json` in stateDir. */
  store?: WorkspaceStateStore;
  /**
   * A change feed of the worktree (`openChangeFeed`, inotify-feed.ts) for the tree hash to look
   * only at what changed; default none (every hash stats every file). Ended by `close()`.
   */
  changeFeed?: (root: string) => ChangeFeed;
  /**
   * neutralFilterEnv of the repository, when the caller just made this worktree with it
   * (addWorktree): a new worktree has no config of its own, so the repository's filters are all
   * it can see. Used only when stateDir holds no state yet; default: asked of the git dir.
   */
  filterEnv?: Record<string, string>;
  /**
   * The repository's common dir and object format, as the caller found them when it resolved
   * `baseCommit` (addWorktree: one rev-parse before the worktree existed). With them `baseCommit`
   * must be that full oid: the workspace then asks git nothing more to open. Default: one rev-parse.
   */
  repository?: { commonDir: string; objectFormat: string };
}

/** The state dir belongs to another base commit: reusing it would mix two jobs' bookkeeping. */
export class WorkspaceStateMismatchError extends Error {
  override readonly name = 'WorkspaceStateMismatchError';
  constructor(readonly stateDir: string, readonly saved: string, readonly requested: string) {
    super(`state in ${stateDir} is for base ${saved}, not ${requested}`);
  }
}

/**
 * A git worktree with the tree hash of DESIGN §3.2. Every git command pins GIT_DIR to the git dir
 * resolved when the workspace was first opened (saved in stateDir): sandboxed code can rewrite the
 * worktree's `.git` file, and a git dir of its choosing could run its own config (fsmonitor,
 * filters) in this unsandboxed process. The worktree's real index is never read after seeding,
 * nor written.
 */
export class GitWorkspace implements ObservableWorkspace {
  readonly scratchDir: string;
  private readonly serial = new Serial();
  private readonly repo: RepoHandle & { memo: IndexMemo };
  private readonly zeroOid: string;
  private baseEntries: Promise<EntryMap> | undefined;
  /** Whether this process already dropped newly ignored entries once (see refreshPrivateIndex). */
  private ignoredChecked = false;
  private readonly feed: ChangeFeed | undefined;
  /** The gits the feed's short way writes objects with (running between hashes). */
  private readonly objects: ObjectBatches;
  /** The next clean room, staged ahead (prepareCleanRooms). */
  private staging: RoomStaging | undefined;

  private constructor(
    readonly root: string,
    private readonly stateDir: string,
    private readonly store: WorkspaceStateStore,
    private state: WorkspaceState,
    configEnv: Record<string, string>,
    changeFeed: ((root: string) => ChangeFeed) | undefined,
  ) {
    this.feed = changeFeed?.(root);
    this.scratchDir = join(stateDir, 'scratch');
    const indexFile = join(stateDir, 'tree.index');
    this.zeroOid = '0'.repeat(state.baseCommit.length);
    this.repo = { root, gitDir: state.gitDir, indexFile, configEnv, memo: new IndexMemo(indexFile, this.zeroOid.length / 2) };
    this.objects = new ObjectBatches(this.repo);
  }

  get baseCommit(): string {
    return this.state.baseCommit;
  }

  /** The pinned git dir (see the class comment): trusted tools use it as GIT_DIR too. */
  get gitDir(): string {
    return this.state.gitDir;
  }

  /** The sandbox's git view, decided once when the workspace was first opened (sandbox-git-view.ts). */
  get sandboxBinds(): readonly ReadOnlyBind[] {
    return this.state.sandboxBinds ?? [];
  }

  static async open(opts: GitWorkspaceOptions): Promise<GitWorkspace> {
    const root = resolve(opts.root);
    const stateDir = resolve(opts.stateDir);
    mkdirSync(stateDir, { recursive: true });
    const store = opts.store ?? fileWorkspaceStore(stateDir);
    const saved = store.load();
    const gitDir = saved?.gitDir ?? opts.gitDir ?? (await git(['rev-parse', '--absolute-git-dir'], { cwd: root })).trim();
    // The sandbox's git view is made once; again only when its files are gone (a job directory swept, then resumed).
    const needsView = !saved?.sandboxBinds || saved.sandboxBinds.some((bind) => !existsSync(bind.source));
    const { commit: baseCommit, ...repository } = opts.repository ? { commit: opts.baseCommit, ...opts.repository } : await commitFacts(root, opts.baseCommit, gitDir);
    if (saved && saved.baseCommit !== baseCommit) {
      throw new WorkspaceStateMismatchError(stateDir, saved.baseCommit, baseCommit);
    }
    const state: WorkspaceState = saved ?? { gitDir, baseCommit, setAside: new Map(), artefacts: new Set<string>() };
    if (needsView) {
      const viewOptions = { root, gitDir, baseCommit, viewDir: join(stateDir, 'sandbox-git'), repository };
      state.sandboxBinds = await makeSandboxGitView(opts.objectsWithin === undefined ? viewOptions : { ...viewOptions, objectsWithin: opts.objectsWithin });
    }
    if (saved?.sandboxBinds !== state.sandboxBinds) store.save(state);
    const filterEnv = !saved && opts.filterEnv ? opts.filterEnv : await neutralFilterEnv(gitDir, root);
    const ws = new GitWorkspace(root, stateDir, store, state, filterEnv, opts.changeFeed);
    ws.prepareScratchDir();
    // The base's listing (the first tree hash needs it) is read while the caller goes on.
    ws.base().catch(() => undefined);
    await seedPrivateIndex(ws.repo, baseCommit);
    return ws;
  }

  async treeHash(): Promise<string> {
    return this.serial.run(async () => {
      const base = await this.base();
      const tree = await this.refresh(base);
      if (this.state.setAside.size === 0 && this.state.artefacts.size === 0) return tree ?? (await runIn(this.repo, ['write-tree'])).trim();
      const current = await listPrivateIndex(this.repo);
      const lines = [...overrideLines(this.state.setAside, current, base, this.zeroOid), ...artefactLines(this.state.artefacts, current, this.zeroOid)];
      if (lines.length === 0) return (await runIn(this.repo, ['write-tree'])).trim();
      // The overrides go into a throwaway copy: the private index keeps the real content's stat data.
      const tmp = join(this.stateDir, 'tree.index.override');
      this.repo.memo.flush();
      copyFileSync(this.repo.indexFile, tmp);
      try {
        await runIn(this.repo, ['update-index', '--index-info'], lines.map((l) => `${l}\n`).join(''), tmp);
        return (await runIn(this.repo, ['write-tree'], undefined, tmp)).trim();
      } finally {
        rmSync(tmp, { force: true });
      }
    });
  }

  async observe<T>(action: () => Promise<T>, setAside: 'created' | 'all' | 'tests'): Promise<Observed<T>> {
    const before = await this.snapshot();
    let outcome: { ok: true; value: T } | { ok: false; error: unknown };
    try {
      outcome = { ok: true, value: await action() };
    } catch (error) {
      outcome = { ok: false, error };
    }
    // Even a failed action's leftovers are leftovers: record them before rethrowing.
    const after = await this.snapshot();
    const { created } = diffEntries(before, after);
    if (setAside === 'tests') {
      const split = splitTestRun(this.state, await this.base(), before, after);
      this.state = { ...this.state, setAside: split.setAside, artefacts: split.artefacts };
      this.store.save(this.state);
      if (!outcome.ok) throw outcome.error;
      const shown = (paths: string[]) => paths.map(displayPath).sort();
      return { value: outcome.value, created: shown(created), changed: shown(split.changed), artefacts: { written: shown(split.written), first: shown(split.first) } };
    }
    this.state = { ...this.state, setAside: nextSetAside(this.state.setAside, before, after, setAside) };
    this.store.save(this.state);
    if (!outcome.ok) throw outcome.error;
    const { changed } = diffEntries(before, after);
    return { value: outcome.value, created: created.map(displayPath).sort(), changed: changed.map(displayPath).sort() };
  }

  async keepSetupState(owner: FileOwner | null): Promise<SetupStateManifest> {
    return this.serial.run(() => keepSetupState({ repo: this.repo, baseCommit: this.baseCommit, dir: this.setupStateDir, expectOwner: owner?.uid ?? null }));
  }

  prepareCleanRooms(owner: FileOwner | null): CleanRoomStaging {
    if (this.staging === undefined || this.staging.isStopped) {
      this.staging = new RoomStaging({ repo: this.repo, base: this.baseCommit, setupState: this.setupStateDir, dir: join(this.stateDir, 'next-room'), owner, gitFile: this.roomGitFile });
    }
    return this.staging;
  }

  async openCleanRoom(tree: string, owner: FileOwner | null): Promise<CleanRoom> {
    const staging = this.staging?.isStopped === false ? { staging: this.staging } : {};
    return this.serial.run(() => openCleanRoom({ repo: this.repo, tree, dir: cleanRoomDir(this.root), setupState: this.setupStateDir, owner, gitFile: this.roomGitFile, ...staging }));
  }

  /** A clean room's `.git` file, so git works inside as in the worktree; null when the git dir is inside the worktree. */
  private get roomGitFile(): string | null {
    return isWithin(this.gitDir, this.root) ? null : `gitdir: ${this.gitDir}\n`;
  }

  async outsideTree(tree: string): Promise<string[]> {
    return this.serial.run(() => outsideTree(this.repo, tree, this.setupStateDir, join(this.stateDir, 'outside.index')));
  }

  private get setupStateDir(): string {
    return join(this.stateDir, 'setup-state');
  }

  release(path: string): void {
    const released = [...this.state.artefacts].filter((quoted) => displayPath(quoted) === path);
    if (released.length === 0) return;
    const artefacts = new Set(this.state.artefacts);
    for (const quoted of released) artefacts.delete(quoted);
    this.state = { ...this.state, artefacts };
    this.store.save(this.state);
  }

  private snapshot(): Promise<EntryMap> {
    return this.serial.run(async () => {
      await this.refresh(await this.base());
      return listPrivateIndex(this.repo);
    });
  }

  /** Brings the private index up to the worktree; returns its tree when the refresh already named it (the change feed's edits). */
  private async refresh(base: EntryMap): Promise<string | undefined> {
    const { checked, tree } = this.feed === undefined
      ? { checked: await refreshPrivateIndex(this.repo, base, this.zeroOid, !this.ignoredChecked), tree: undefined }
      : await refreshWithFeed(this.repo, this.feed, this.objects, base, this.zeroOid, !this.ignoredChecked);
    if (checked) this.ignoredChecked = true;
    return tree;
  }

  /** Stops the change feed (its helper process and watches) and the object gits, and writes the private index; hashes after this stat every file. */
  close(): void {
    this.feed?.close();
    this.objects.reset();
    this.repo.memo.flush();
  }

  private base(): Promise<EntryMap> {
    // The base commit never changes: list it once. A failed listing is not cached.
    this.baseEntries ??= runIn(this.repo, ['ls-tree', '-r', '--full-tree', this.baseCommit])
      .then(parseLsTree)
      .catch((e: unknown) => {
        this.baseEntries = undefined;
        throw e;
      });
    return this.baseEntries;
  }

  /**
   * Full command outputs live here, in the host's state dir, outside the worktree: the sandbox
   * can neither read nor swap them (0700), so the host never follows a link a command planted.
   */
  private prepareScratchDir(): void {
    mkdirSync(this.scratchDir, { recursive: true });
    chmodSync(this.scratchDir, 0o700);
  }
}

/**
 * One rev-parse in `cwd` (with `gitDir`, that git dir): `ref`'s commit (full oid), and the
 * repository's common dir (as git prints it: relative to `cwd` or absolute) and object format.
 */
export async function commitFacts(cwd: string, ref: string, gitDir?: string): Promise<{ commit: string; commonDir: string; objectFormat: string }> {
  const lines = (
    await git(['rev-parse', '--git-common-dir', '--show-object-format', '--verify', '--end-of-options', `${ref}^{commit}`], { cwd, ...(gitDir ? { env: { GIT_DIR: gitDir } } : {}) })
  ).trim().split('\n');
  const commit = lines.pop() ?? '';
  const objectFormat = lines.pop() ?? '';
  return { commit, commonDir: lines.join('\n'), objectFormat };
}
