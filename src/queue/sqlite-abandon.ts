import type { SqliteContext } from './sqlite-context.js';

/**
 * Expires at once the leases a worker held: called by that worker's next incarnation at startup
 * (it knows the previous process is gone), so its jobs resume now instead of after the lease
 * runs out. The jobs are then claimed like any stalled job (the lost attempt counts).
 */
export function createAbandon(ctx: SqliteContext): (workerId: string) => number {
  const expire = ctx.db.prepare<{ owner: string; past: number }>(
    `UPDATE jobs SET lease_until = @past WHERE state = 'running' AND lease_owner = @owner`,
  );
  return (workerId) => expire.run({ owner: workerId, past: ctx.now() - 1 }).changes;
}
