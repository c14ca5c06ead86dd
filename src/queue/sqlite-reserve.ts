import { checkReserve, fitsUnder } from './check-reserve.js';
import { HELD, pick, type SqliteContext } from './sqlite-lease.js';
import { LeaseLostError, type Lease, type ReserveOptions, type ReserveResult, type SpendCap } from './types.js';

/* The SQLite queue's budget reservations (JobQueue.reserve): a running job's claim on the caps it runs under. */

export interface ReserveOps {
  reserve(lease: Lease, options: ReserveOptions): ReserveResult;
  spentByInstallation(installationKey: string, since: number): number;
}

type Keys = { repo_key: string; installation_key: string | null };

/**
 * One IMMEDIATE transaction per reservation, so two workers reserving against one remaining budget
 * are serialised: the second sees the first's reservation. A reservation counts while its job is
 * running with a live lease; every way out of 'running' clears it (CLEAR_LEASE), and an expired
 * lease stops counting at once.
 */
export function createReserve(ctx: SqliteContext): ReserveOps {
  const { db } = ctx;
  const held = db.prepare<Lease, Keys>(`SELECT repo_key, installation_key FROM jobs WHERE ${HELD}`);
  const column = { repo: 'repo_key', installation: 'installation_key' } as const;
  const spentIn = (scope: SpendCap['scope']) =>
    db.prepare<{ key: string; since: number }, { usd: number | null }>(`SELECT SUM(usd) AS usd FROM spend WHERE ${column[scope]} = @key AND at >= @since`);
  const othersIn = (scope: SpendCap['scope']) =>
    db.prepare<{ key: string; jobId: string; now: number }, { usd: number | null }>(
      `SELECT SUM(reserved_usd) AS usd FROM jobs WHERE ${column[scope]} = @key AND state = 'running' AND lease_until > @now AND id != @jobId`,
    );
  const spent = { repo: spentIn('repo'), installation: spentIn('installation') };
  const others = { repo: othersIn('repo'), installation: othersIn('installation') };
  const store = db.prepare<Lease & { usd: number }>(`UPDATE jobs SET reserved_usd = @usd WHERE ${HELD}`);
  const reserve = db.transaction((lease: Lease, options: ReserveOptions): ReserveResult => {
    const job = held.get(pick(lease));
    if (!job) throw new LeaseLostError(lease.jobId);
    const now = ctx.now();
    for (const cap of options.caps) {
      const own = cap.scope === 'repo' ? job.repo_key : job.installation_key;
      if (cap.key !== own) throw new RangeError(`a ${cap.scope} cap for key ${cap.key} does not apply to job ${lease.jobId}`);
      const spentUsd = spent[cap.scope].get({ key: cap.key, since: cap.since })?.usd ?? 0;
      const reservedUsd = others[cap.scope].get({ key: cap.key, jobId: lease.jobId, now })?.usd ?? 0;
      if (!fitsUnder(cap.limitUsd, spentUsd + reservedUsd + options.usd)) return { ok: false, cap, spentUsd, reservedUsd, resetsAt: cap.resetsAt };
    }
    store.run({ ...pick(lease), usd: options.usd });
    return { ok: true };
  });
  return {
    reserve(lease, options) {
      checkReserve(options);
      return reserve.immediate(lease, options);
    },
    spentByInstallation: (installationKey, since) => spent.installation.get({ key: installationKey, since })?.usd ?? 0,
  };
}
