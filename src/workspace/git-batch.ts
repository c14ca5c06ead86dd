import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { clipHeadTail } from '../util/clip.js';
import { GitError, spawnGit } from './git.js';

export interface GitBatchOptions {
  cwd: string;
  /** Only GIT_* variables (as git()). */
  env?: Record<string, string>;
  /** One request's answer must come within this; else the process is killed. Default 5 minutes, as git(). */
  timeoutMs?: number;
}

interface Asked {
  child: ChildProcessWithoutNullStreams;
  lines: number;
  got: string[];
  resolve: (lines: string[]) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

const DEFAULT_TIMEOUT_MS = 5 * 60_000;
const STDERR_KEPT = 4000;

/**
 * One git command that reads requests on stdin and answers each with a known number of lines
 * (`hash-object --stdin-paths`: one id per path; `mktree --batch`: one per tree), kept running
 * between requests: starting git costs more than what it does for one changed file. Started at
 * the first request, again after it exited; any failure (git exited, a timeout, an answer nobody
 * asked for) rejects the request with a GitError and ends the process, as a failed git() would.
 * Idle, it keeps no event loop alive; `close()` ends it.
 */
export class GitBatch {
  private child: ChildProcessWithoutNullStreams | undefined;
  private asked: Asked | undefined;
  private pending = '';
  private stderr = '';
  private tail: Promise<unknown> = Promise.resolve();
  /** How often close() was called: a request asked before a close is not sent after it. */
  private closes = 0;

  constructor(private readonly args: readonly string[], private readonly opts: GitBatchOptions) {}

  /** Writes `input` and resolves with the next `lines` lines git answers (one request at a time, in call order). */
  ask(input: string, lines: number): Promise<string[]> {
    const closes = this.closes;
    const result = this.tail.then(() => (closes === this.closes ? this.send(input, lines) : Promise.reject(new GitError('exit', this.args, null, 'closed'))));
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Ends the process, failing every request not answered yet (a later request starts another). */
  close(): void {
    this.closes += 1;
    const child = this.child;
    this.child = undefined;
    if (child === undefined) return;
    child.kill('SIGKILL');
    this.fail(child, new GitError('exit', this.args, null, 'closed'));
  }

  private send(input: string, lines: number): Promise<string[]> {
    if (lines === 0) return Promise.resolve([]);
    const child = this.child ?? this.start();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        this.fail(child, new GitError('timeout', this.args, null, this.stderr));
      }, this.opts.timeoutMs ?? DEFAULT_TIMEOUT_MS);
      this.asked = { child, lines, got: [], resolve, reject, timer };
      this.hold(child, true);
      child.stdin.write(input);
    });
  }

  private start(): ChildProcessWithoutNullStreams {
    const child = spawnGit(this.args, this.opts);
    this.child = child;
    this.pending = '';
    this.stderr = '';
    child.stdin.on('error', () => undefined);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (text: string) => this.read(child, text));
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => {
      if (this.child === child) this.stderr = clipHeadTail(this.stderr + text, STDERR_KEPT);
    });
    child.on('error', (error) => this.fail(child, new GitError('exit', this.args, null, `${this.stderr}${error.message}`)));
    // 'close': stderr is read to its end, for the message.
    child.on('close', (code) => this.fail(child, new GitError('exit', this.args, code, this.stderr)));
    this.hold(child, false);
    return child;
  }

  private read(child: ChildProcessWithoutNullStreams, text: string): void {
    if (this.child !== child) return;
    this.pending += text;
    for (let end = this.pending.indexOf('\n'); end >= 0; end = this.pending.indexOf('\n')) {
      const line = this.pending.slice(0, end);
      this.pending = this.pending.slice(end + 1);
      const asked = this.asked;
      if (asked === undefined) {
        child.kill('SIGKILL');
        this.fail(child, new GitError('exit', this.args, null, `an answer nobody asked for: ${line.slice(0, 200)}`));
        return;
      }
      asked.got.push(line);
      if (asked.got.length === asked.lines) {
        this.asked = undefined;
        clearTimeout(asked.timer);
        this.hold(child, false);
        asked.resolve(asked.got);
      }
    }
  }

  /** The process is done for: its request waiting (if any) fails, the next one starts another. */
  private fail(child: ChildProcessWithoutNullStreams, error: GitError): void {
    if (this.child === child) this.child = undefined;
    this.hold(child, false);
    const asked = this.asked;
    if (asked?.child !== child) return;
    this.asked = undefined;
    clearTimeout(asked.timer);
    asked.reject(error);
  }

  /** A request keeps the event loop alive until answered; an idle process does not. */
  private hold(child: ChildProcessWithoutNullStreams, held: boolean): void {
    for (const handle of [child, child.stdout, child.stderr] as Array<{ ref?: () => void; unref?: () => void }>) {
      if (held) handle.ref?.();
      else handle.unref?.();
    }
  }
}
