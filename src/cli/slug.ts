import { createHash } from 'node:crypto';

/**
 * A branch-safe, deterministic name for a task: the same task always maps to the same run, so
 * `--resume` finds it. A short hash keeps two tasks with the same opening words apart.
 */
export function taskSlug(task: string): string {
  const words = task
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  const hash = createHash('sha256').update(task).digest('hex').slice(0, 6);
  return words ? `${words}-${hash}` : hash;
}
