import type { EgressReport } from './egress-ledger.js';

/** One command, isolated. The only way untrusted code or model-chosen commands are run. */
import type { FileOwner } from './ownership.js';

/**
 * A host directory shown read-only inside the sandbox at `target`. Decided by the host once, from
 * its own state, when the workspace is created (a workspace's git view: see sandbox-git-view.ts),
 * never from a file inside the worktree.
 */
export interface ReadOnlyBind {
  source: string;
  target: string;
}

/**
 * A host directory shown read-WRITE at `target`: only the package manager's own cache, for the
 * setup step only. Host-decided like a ReadOnlyBind, checked the same way.
 */
export type WritableBind = ReadOnlyBind;

export interface SandboxRequest {
  /** Passed to `bash -c`. */
  command: string;
  /** The writable workspace root; the command starts here (or in `cwd` below it). */
  workspace: string;
  /** A directory inside `workspace` to start in; defaults to `workspace`. */
  cwd?: string;
  /**
   * Where the workspace appears inside the sandbox; default: its own path. The clean room
   * (workspace/clean-room.ts) is shown at the worktree's path, so absolute paths setup wrote (a
   * venv's shebangs) hold there too. Host-decided; unsandboxed (GREENFIX_SANDBOX=off) it is ignored.
   */
  mountAt?: string;
  timeoutMs: number;
  /**
   * Only the setup step may have network, and then only through the egress proxy: public hosts,
   * and when `egressAllow` (the repository's `network.allow`) is given, only those domains. Default false.
   */
  network?: boolean;
  egressAllow?: readonly string[];
  /** The workspace's read-only binds (its git view), as the host decided them; default none. */
  readOnlyBinds?: readonly ReadOnlyBind[];
  /** Host-decided read-write binds (the setup step's package-manager cache); default none. */
  writableBinds?: readonly WritableBind[];
  /**
   * The operator's setup secrets granted to this repository (name → value): only for a networked
   * request (setup) whose egress is limited to the repository's `network.allow`, else refused. They
   * reach bwrap through a descriptor (`--args`), never on a command line another process could read.
   */
  secrets?: Readonly<Record<string, string>>;
  /** Extra non-secret variables, added to the allow-listed base environment. */
  env?: Record<string, string>;
  /** Where the full (capped) combined output is written, if anywhere. */
  outputFile?: string;
  signal?: AbortSignal;
}

export interface SandboxResult {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  aborted: boolean;
  /** Head + tail of each stream, with "[N bytes elided]" where the middle went. */
  stdout: string;
  stderr: string;
  truncated: boolean;
  durationMs: number;
  /** Set when a limit killed the command: the memory cap (the kernel said so), or the disk watchdog. */
  limit?: SandboxLimitHit;
  /** For a networked request through the egress proxy: the connections it refused. */
  egress?: EgressReport;
}

export type SandboxLimitHit = { kind: 'memory'; limitMb: number } | { kind: 'disk'; limitMb: number };

/**
 * A job's environment image, unpacked by the host (image/image-cache.ts) into a host-owned
 * directory: its root is shown read-only as the sandbox's `/` in place of the host's userland.
 */
export interface SandboxImage {
  /** As the repository or operator named it. */
  reference: string;
  /** `sha256:…`: what the evidence names and the caches are keyed by. */
  digest: string;
  /** The unpacked root (host path). */
  rootfs: string;
}

/** What a caller needs to run commands (tools, the setup step). */
export interface SandboxRunner {
  readonly kind: 'bwrap' | 'none';
  /** The environment image whose root is every command's `/`; absent or null: the host's userland. */
  readonly image?: SandboxImage | null;
  run(request: SandboxRequest): Promise<SandboxResult>;
}

/**
 * The deployment's sandbox. `run` runs one-off commands as the shared default owner (nobody when
 * root); a job takes `forJob` instead, which gives it a uid of its own for all its commands.
 */
export interface Sandbox extends SandboxRunner {
  /** `bwrap` when isolated; `none` only when GREENFIX_SANDBOX=off was set explicitly. */
  readonly kind: 'bwrap' | 'none';
  /** Who `run` runs as; null: the current user. */
  readonly owner: FileOwner | null;
  /**
   * Leases a uid for one job (when root), hands `workspace` to it (re-chowning a resumed job's
   * worktree only when its owner changed) and watches its disk use. Release it when the job ends.
   */
  forJob(options: { workspace: string; image?: SandboxImage | null }): Promise<JobSandbox>;
}

/** One job's isolation: every command runs as `owner`; a limit that ends the job aborts `signal`. */
export interface JobSandbox extends SandboxRunner {
  /** The job's uid: who commands run as, and so who must own the files the tools create; null: the current user. */
  readonly owner: FileOwner | null;
  /** Aborted (reason: a SandboxLimitError) when the disk watchdog stopped the job. */
  readonly signal: AbortSignal;
  release(): Promise<void>;
}
