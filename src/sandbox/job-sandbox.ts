import { treeBytes } from './disk-watchdog.js';
import { SandboxLimitError } from './errors.js';
import type { FileOwner } from './ownership.js';
import type { JobSandbox, SandboxImage, SandboxRequest, SandboxResult } from './types.js';

export interface DiskLimit {
  limitMb: number;
  /** The shortest pause between two walks of the worktree while a command runs. */
  pollMs: number;
}

export interface JobSandboxOptions {
  kind: 'bwrap' | 'none';
  owner: FileOwner | null;
  /** Runs one command as `owner`. */
  run: (request: SandboxRequest) => Promise<SandboxResult>;
  workspace: string;
  /** The job's environment image (bwrap only); null: the host's userland. */
  image?: SandboxImage | null;
  disk: DiskLimit;
  /** Removes what the job's commands shared, and gives the uid back. */
  release: () => void | Promise<void>;
}

/**
 * One job's sandbox: its commands, as its own uid, and the disk watchdog. The worktree only grows
 * while a command runs, so it is walked then (again and again, pausing at least nine times as
 * long as a walk took) and once after each command; what a command's writable binds (the setup
 * step's package cache) grow by while it runs counts too. Past the limit, the running command is
 * killed, `signal` aborts with a SandboxLimitError and every later command is refused with it.
 */
export function createJobSandbox(options: JobSandboxOptions): JobSandbox {
  const { disk, workspace } = options;
  const limitBytes = disk.limitMb * 1024 * 1024;
  const stopped = new AbortController();
  let current: AbortController | null = null;
  let epoch = 0;
  let walking = false;
  let timer: NodeJS.Timeout | undefined;
  let released = false;
  // The running command's writable binds (the setup step's package cache) and their size before
  // it: what they grow by counts against the cap with the worktree, until the walk after it.
  let binds: Array<{ source: string; before: number }> = [];

  /** Ends the job (and its running command) with a disk-limit error saying why. */
  const stop = (reason: string) => {
    if (stopped.signal.aborted) return;
    stopped.abort(new SandboxLimitError('disk', disk.limitMb, reason));
    current?.abort();
  };
  const schedule = (ms: number) => {
    if (walking || timer || released || stopped.signal.aborted) return;
    timer = setTimeout(() => void walk(), ms);
  };
  const walk = async () => {
    timer = undefined;
    walking = true;
    const started = { at: Date.now(), epoch };
    const counted = binds;
    let bytes: number;
    try {
      bytes = await treeBytes(workspace);
      for (const b of counted) if (bytes <= limitBytes) bytes += Math.max(0, (await treeBytes(b.source)) - b.before);
    } catch (error) {
      // Unmeasured is not under the limit: the job stops, saying why.
      walking = false;
      return stop(`the disk watchdog could not measure the worktree: ${error instanceof Error ? error.message : String(error)}`);
    }
    walking = false;
    if (!current && binds === counted) binds = [];
    if (bytes > limitBytes) return stop(`disk limit reached: ${counted.length > 0 ? 'the worktree and the package cache' : 'the worktree'} grew past ${disk.limitMb} MB`);
    const took = Date.now() - started.at;
    // Go on while a command runs; once more soon when one ended during this walk.
    if (current) schedule(Math.max(disk.pollMs, 9 * took));
    else if (started.epoch !== epoch) schedule(9 * took);
  };

  const run = async (request: SandboxRequest): Promise<SandboxResult> => {
    stopped.signal.throwIfAborted();
    // A walk due but not started (the job's first, at once) would start beside the command and race
    // its first writes: the command's own walks (while it runs, and right after it) take its place.
    if (timer) clearTimeout(timer);
    timer = undefined;
    const measured = await Promise.all((request.writableBinds ?? []).map(async (b) => ({ source: b.source, before: await treeBytes(b.source) })));
    const controller = new AbortController();
    current = controller;
    binds = measured;
    epoch += 1;
    schedule(disk.pollMs);
    const signal = request.signal ? AbortSignal.any([request.signal, controller.signal]) : controller.signal;
    try {
      const result = await options.run({ ...request, signal });
      // The caller's signal may include ours (the job stops on it): the stop is the reason either way.
      if (!controller.signal.aborted || !stopped.signal.aborted) return result;
      return { ...result, aborted: false, limit: { kind: 'disk', limitMb: disk.limitMb } };
    } finally {
      current = null;
      epoch += 1;
      // One walk right after every command: a short one may have written past the cap before any walk.
      if (timer) clearTimeout(timer);
      timer = undefined;
      schedule(0);
    }
  };

  schedule(0);
  return {
    kind: options.kind,
    owner: options.owner,
    image: options.image ?? null,
    signal: stopped.signal,
    run,
    async release() {
      if (released) return;
      released = true;
      if (timer) clearTimeout(timer);
      await options.release();
    },
  };
}
