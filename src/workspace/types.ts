import type { TestEvidence } from '../verify/test-evidence.js';
/** A checked-out tree the agent works in, with the verification bookkeeping of DESIGN §3.2. */
import type { ReadOnlyBind } from '../sandbox/types.js';
import type { FileOwner } from '../sandbox/ownership.js';
import type { CleanRoom } from './clean-room.js';
import type { CleanRoomStaging } from './room-staging.js';
import type { SetupStateManifest } from './setup-state.js';

export interface VerifiedTree {
  tree: string;
  command: string;
  /** 0, except under `verify_mode: no_new_failures`, where `tests` says why it still counts. */
  exitCode: number;
  durationMs: number;
  outputTail: string;
  /** Per-test evidence against the baseline, when the test run's output could be read. */
  tests?: TestEvidence;
  /**
   * The clean room this verdict ran in (DESIGN §3.2): every field above is that run's. The cost of
   * materialising the tree and restoring the setup state, without the test run; the setup
   * state's files, how many came staged ahead, and whether the tree did (room-staging.ts; both
   * absent in older journals).
   */
  cleanRoom?: { materialiseMs: number; restoreMs: number; files: number; staged?: number; treeStaged?: boolean };
}

export interface Workspace {
  /** Absolute path of the worktree root. */
  readonly root: string;
  /**
   * The git dir resolved when the workspace was opened; never re-read from the worktree's `.git`
   * file, which sandboxed code can rewrite. Trusted git commands pin GIT_DIR to it.
   */
  readonly gitDir: string;
  /** The commit the worktree was created at; the published commit's only parent. */
  readonly baseCommit: string;
  /**
   * The git tree id of the working tree as it would be committed: .gitignore honoured, greenfix's
   * scratch directory and unchanged setup/test leftovers left out.
   */
  treeHash(): Promise<string>;
}

/** Commands detected for a repository (or given by the user). */
export interface Commands {
  setup: string | null;
  verify: string | null;
}

/** What a command did to the files git sees (ignored files are never reported). */
export interface Observed<T> {
  value: T;
  /** Paths that did not exist before (or were ignored before) and now do. */
  created: string[];
  /** Paths that existed before and now differ or are gone (under 'tests': test artefacts excluded). */
  changed: string[];
  /** Under 'tests' only: the test artefacts this run wrote, and those it made for the first time. */
  artefacts?: { written: string[]; first: string[] };
}

export interface ObservableWorkspace extends Workspace {
  /**
   * Runs `action` and reports what it changed. Paths in `setAside` ('created' or 'all') are left
   * out of the tree hash and the commit for as long as their content stays as the action left it
   * (DESIGN §3.2: setup leftovers). An edit afterwards brings them back in. 'tests' (a test run)
   * makes what the run writes outside the sources test artefacts for good (test-artefacts.ts).
   */
  observe<T>(action: () => Promise<T>, setAside: 'created' | 'all' | 'tests'): Promise<Observed<T>>;
  /**
   * The agent wrote `path` (relative to root) itself: a test artefact there is part of the change
   * from now on. Called before the write, so a crash in between keeps the edit in the tree.
   */
  release(path: string): void;
  /**
   * Directory for greenfix's own scratch files (full command outputs): host-owned, OUTSIDE the
   * worktree, never visible to or writable by the sandbox.
   */
  readonly scratchDir: string;
  /** What the sandbox sees of git, decided once by the host (pass as `readOnlyBinds`). */
  readonly sandboxBinds: readonly ReadOnlyBind[];
  /**
   * Keeps what setup left outside the base tree, a host-owned copy (setup-state.ts): called once,
   * right after setup and before the agent acts. `owner`: who setup ran as (its files must be theirs).
   */
  keepSetupState(owner: FileOwner | null): Promise<SetupStateManifest>;
  /**
   * Stages the clean rooms to come — the base checked out for `owner`, the kept setup state beside
   * it — ahead of their verdicts and again after each (room-staging.ts), until the handle's
   * `stop()`. Call it after keepSetupState, and stop it before the workspace's files go.
   */
  prepareCleanRooms(owner: FileOwner | null): CleanRoomStaging;
  /** A fresh directory with exactly `tree` and the kept setup state, handed to `owner` (clean-room.ts). */
  openCleanRoom(tree: string, owner: FileOwner | null): Promise<CleanRoom>;
  /** Paths the worktree has outside `tree` that the clean room does not give the tests (clean-room.ts). */
  outsideTree(tree: string): Promise<string[]>;
}
