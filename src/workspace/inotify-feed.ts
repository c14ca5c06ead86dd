import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { packageFile } from '../util/package-file.js';
import { noChangeFeed, type ChangeFeed, type FeedReport, type WatchResult } from './change-feed.js';
import { interpretEvents, type InotifyEvent, type WatchMaps } from './inotify-events.js';

export interface InotifyFeedOptions {
  /** The worktree root (absolute). */
  root: string;
  /** The compiled native/inotify-feed.c. */
  helper: string;
  /** At most this many watches (directories and files), else the feed goes off; default: the kernel's limit. */
  maxWatches?: number;
}

/** What one command to the helper got back: the watches it added and the errors it met. */
interface Answer {
  watched: Array<{ kind: 'D' | 'F'; wd: number; path: string }>;
  errors: Array<{ errno: number; path: string }>;
}

const ENOENT = 2;
const ENOTDIR = 20;
const ELOOP = 40;
const EXDEV = 18;
const ENOSPC = 28;
/** A path gone, or no longer a directory / regular file beneath the root: the event that did it names it. */
const MOVED_ON = new Set([ENOENT, ENOTDIR, ELOOP, EXDEV]);

/**
 * The change feed of one worktree from inotify, read by native/inotify-feed.c (Node's fs.watch
 * sees no write through a shared mmap and drops queue overflows silently: docs/decisions.md).
 * Directories are watched for names, every regular file for its inode, so a write through a hard
 * link anywhere is seen. Whatever it cannot vouch for (overflow, a renamed directory, the helper
 * gone, a watch that failed) makes the next report untrusted; a watch limit turns it off.
 */
export class InotifyFeed implements ChangeFeed {
  private child: ChildProcessByStdio<Writable, Readable, null> | undefined;
  private maps: WatchMaps = { dirs: new Map(), files: new Map() };
  private events: InotifyEvent[] = [];
  private broken: string | undefined = 'not started';
  private off: string | undefined;
  private pending: Buffer = Buffer.alloc(0);
  private answer: Answer = { watched: [], errors: [] };
  private readonly waiters: Array<(answer: Answer) => void> = [];

  constructor(private readonly opts: InotifyFeedOptions) {}

  async changes(): Promise<FeedReport> {
    if (this.off !== undefined) return { trusted: false, reason: this.off, off: true };
    if (this.child === undefined || this.broken !== undefined) return { trusted: false, reason: this.broken ?? 'not started', off: false };
    await this.command('s');
    const events = this.events;
    this.events = [];
    const report = interpretEvents(events, this.maps);
    if (this.broken !== undefined) return { trusted: false, reason: this.broken, off: this.off !== undefined };
    if (!report.trusted) this.broken = report.reason;
    return report;
  }

  async restart(ignoredDirs: readonly string[]): Promise<WatchResult> {
    this.stop();
    if (this.off !== undefined) return { watching: false, off: true, reason: this.off };
    this.maps = { dirs: new Map(), files: new Map() };
    this.events = [];
    this.broken = undefined;
    this.start();
    const walked = this.accept(await this.walk(['.'], ignoredDirs));
    if (walked !== undefined) return walked;
    await this.command('s');
    // What happened while the walk ran stays for the next report: the caller's full hash sees
    // it, but a name relinked (or a directory made) behind the walk was watched as it was before.
    return this.broken === undefined ? { watching: true } : { watching: false, off: false, reason: this.broken };
  }

  async watchDirs(dirs: readonly string[], ignoredDirs: readonly string[]): Promise<{ files: string[] } | { reason: string }> {
    const answer = await this.walk(dirs, ignoredDirs);
    const failed = this.accept(answer);
    if (failed !== undefined) return { reason: failed.reason };
    return { files: answer.watched.filter((w) => w.kind === 'F').map((w) => w.path) };
  }

  async watchFiles(paths: readonly string[]): Promise<WatchResult> {
    if (this.child === undefined) return { watching: false, off: this.off !== undefined, reason: this.off ?? this.broken ?? 'not started' };
    const answers = await Promise.all(paths.map((path) => this.command(`f${path}`)));
    return this.accept({ watched: answers.flatMap((a) => a.watched), errors: answers.flatMap((a) => a.errors) }) ?? { watching: true };
  }

  distrust(reason: string): void {
    this.broken ??= reason;
  }

  close(): void {
    this.off ??= 'closed';
    this.stop();
  }

  private async walk(dirs: readonly string[], ignoredDirs: readonly string[]): Promise<Answer> {
    if (this.child === undefined) return { watched: [], errors: [{ errno: -1, path: this.off ?? this.broken ?? 'not started' }] };
    this.send('c');
    for (const dir of ignoredDirs) this.send(`x${dir}`);
    const answers = await Promise.all(dirs.map((dir) => this.command(`r${dir}`)));
    return { watched: answers.flatMap((a) => a.watched), errors: answers.flatMap((a) => a.errors) };
  }

  /** Undefined when every watch is in place (a path gone meanwhile is the event's business). */
  private accept(answer: Answer): Extract<WatchResult, { watching: false }> | undefined {
    const watches = this.maps.dirs.size + this.maps.files.size;
    const limited = answer.errors.find((e) => e.errno === ENOSPC);
    if (limited !== undefined || watches > (this.opts.maxWatches ?? Infinity)) {
      this.close();
      this.off = `too many files to watch (${watches} watches${limited === undefined ? '' : ': the kernel refused one'})`;
      return { watching: false, off: true, reason: this.off };
    }
    const failed = answer.errors.find((e) => !MOVED_ON.has(e.errno));
    if (failed !== undefined) this.broken ??= `could not watch ${failed.path} (errno ${failed.errno})`;
    return this.broken === undefined ? undefined : { watching: false, off: this.off !== undefined, reason: this.broken };
  }

  private start(): void {
    const child = spawn(this.opts.helper, [this.opts.root], { stdio: ['pipe', 'pipe', 'inherit'], env: {} });
    this.child = child;
    child.on('error', (error) => {
      this.off ??= `the inotify helper could not run: ${error.message}`;
      this.gone();
    });
    child.on('exit', (code, signal) => {
      if (this.child === child) this.broken ??= `the inotify helper exited (${signal ?? code})`;
      if (this.child === child) this.gone();
    });
    child.stdin.on('error', () => undefined);
    child.stdout.on('data', (chunk: Buffer) => this.read(chunk));
    this.idle();
  }

  private stop(): void {
    const child = this.child;
    this.child = undefined;
    if (child !== undefined) {
      child.stdout.removeAllListeners('data');
      child.kill('SIGKILL');
    }
    this.gone();
  }

  /** Unblocks every waiter: their answers count as failed. */
  private gone(): void {
    this.child = undefined;
    for (const waiter of this.waiters.splice(0)) waiter({ watched: [], errors: [{ errno: -1, path: this.off ?? this.broken ?? 'the helper' }] });
  }

  private command(text: string): Promise<Answer> {
    const child = this.child;
    if (child === undefined) return Promise.resolve({ watched: [], errors: [{ errno: -1, path: this.off ?? this.broken ?? 'not started' }] });
    child.ref();
    (child.stdout as Readable & { ref?: () => void }).ref?.();
    return new Promise((resolve) => {
      this.waiters.push(resolve);
      this.send(text);
    });
  }

  /** One command, NUL-ended; `c` and `x` have no answer. */
  private send(text: string): void {
    this.child?.stdin.write(Buffer.concat([Buffer.from(text, 'utf8'), Buffer.from([0])]));
  }

  /** Nothing asked of the helper: it must not keep the process alive. */
  private idle(): void {
    this.child?.unref();
    (this.child?.stdout as (Readable & { unref?: () => void }) | undefined)?.unref?.();
  }

  private read(chunk: Buffer): void {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    let start = 0;
    for (let end = this.pending.indexOf(0, start); end >= 0; end = this.pending.indexOf(0, start)) {
      this.record(this.pending.subarray(start, end));
      start = end + 1;
    }
    this.pending = this.pending.subarray(start);
  }

  private record(bytes: Buffer): void {
    const text = bytes.toString('utf8');
    if (!Buffer.from(text, 'utf8').equals(bytes)) this.broken ??= 'a name that is not UTF-8';
    const kind = text[0];
    if (kind === 'R' || kind === 'S') {
      const answer = this.answer;
      this.answer = { watched: [], errors: [] };
      this.waiters.shift()?.(answer);
      if (this.waiters.length === 0) this.idle();
      return;
    }
    const space = text.indexOf(' ');
    const head = text.slice(1, space < 0 ? undefined : space);
    const rest = space < 0 ? '' : text.slice(space + 1);
    if (kind === 'E') {
      const second = rest.indexOf(' ');
      this.events.push({ wd: Number(head), mask: Number(rest.slice(0, second)), name: rest.slice(second + 1) });
    } else if (kind === 'D') {
      this.maps.dirs.set(Number(head), rest);
      this.answer.watched.push({ kind, wd: Number(head), path: rest });
    } else if (kind === 'F') {
      const paths = this.maps.files.get(Number(head)) ?? new Set<string>();
      this.maps.files.set(Number(head), paths.add(rest));
      this.answer.watched.push({ kind, wd: Number(head), path: rest });
    } else if (kind === 'X') {
      this.answer.errors.push({ errno: Number(head), path: rest });
    } else {
      this.broken ??= 'the inotify helper said something unexpected';
    }
  }
}

/**
 * The inotify feed of a worktree, or none when the helper was not built (`npm run build` compiles
 * native/inotify-feed.c where a C compiler is; without it every hash stats every file, as before).
 */
export function openChangeFeed(root: string): ChangeFeed {
  let helper: string;
  try {
    helper = packageFile('dist/native/inotify-feed');
  } catch {
    return noChangeFeed;
  }
  return new InotifyFeed({ root, helper });
}
