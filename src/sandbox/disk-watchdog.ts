import { runProcess } from '../util/run-process.js';
import { DEFAULT_SANDBOX_PATH } from './environment.js';

/**
 * Bytes on disk under `dir` (allocated blocks, so a sparse file counts what it really uses; a
 * hard-linked file once; a symlink never followed; other filesystems not entered), counted by
 * `du` in a process of its own: walked from Node, a 20,000-file worktree cost 0.8 s of greenfix's
 * CPU and a callback per file on the event loop that answers webhooks, after every command
 * (docs/decisions.md "The disk watchdog counts with du"). A directory that is gone counts 0; one
 * du cannot read counts what it could (as before: greenfix runs as root, which reads everything).
 */
export async function treeBytes(dir: string): Promise<number> {
  const r = await runProcess({ argv: ['du', '-s', '-x', '-B1', '--', dir], cwd: '/', env: { PATH: DEFAULT_SANDBOX_PATH, LC_ALL: 'C' }, timeoutMs: 600_000 });
  const total = /^(\d+)\t/.exec(r.stdout);
  if (total) return Number(total[1]);
  if (/No such file or directory/.test(r.stderr)) return 0;
  throw new Error(`du could not measure ${dir} (exit ${r.exitCode}): ${r.stderr.trim() || 'no output'}`);
}
