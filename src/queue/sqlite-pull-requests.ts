import type { SqliteContext } from './sqlite-lease.js';
import { checkedRecord, queueStats, type RepoFigures } from './queue-stats.js';
import type { PullRequestRecord, QueueStats } from './types.js';

export interface PullRequestOps {
  recordPullRequest(record: PullRequestRecord): boolean;
  recordMerge(repoKey: string, number: number, at: number): boolean;
  pullRequestsOpenedSince(repoKey: string, since: number): number[];
  stats(since?: number): QueueStats;
}

/**
 * The SQLite queue's pull request records (migration 4) and the stats over them and the spend.
 * Each write is one statement, so it is atomic on its own; both are idempotent by the primary key.
 */
export function createPullRequestOps(ctx: SqliteContext): PullRequestOps {
  const { db } = ctx;
  const insert = db.prepare<{ repoKey: string; repo: string; number: number; jobId: string; now: number }>(
    `INSERT INTO pull_requests (repo_key, repo, number, job_id, opened_at) VALUES (@repoKey, @repo, @number, @jobId, @now)
     ON CONFLICT (repo_key, number) DO NOTHING`,
  );
  const merge = db.prepare<{ repoKey: string; number: number; at: number }>(
    'UPDATE pull_requests SET merged_at = @at WHERE repo_key = @repoKey AND number = @number AND merged_at IS NULL',
  );
  const opened = db.prepare<{ repoKey: string; since: number }, { opened_at: number }>(
    'SELECT opened_at FROM pull_requests WHERE repo_key = @repoKey AND opened_at >= @since ORDER BY opened_at',
  );
  // Every repository with spend or a PR in the window; its name from its newest PR record.
  const figures = db.prepare<{ since: number }, { repo_key: string; repo: string | null; usd: number; opened: number; merged: number }>(
    `WITH s AS (SELECT repo_key, SUM(usd) AS usd FROM spend WHERE at >= @since GROUP BY repo_key),
          o AS (SELECT repo_key, count(*) AS n FROM pull_requests WHERE opened_at >= @since GROUP BY repo_key),
          m AS (SELECT repo_key, count(*) AS n FROM pull_requests WHERE merged_at >= @since GROUP BY repo_key),
          k AS (SELECT repo_key FROM s UNION SELECT repo_key FROM o UNION SELECT repo_key FROM m)
     SELECT k.repo_key, COALESCE(s.usd, 0) AS usd, COALESCE(o.n, 0) AS opened, COALESCE(m.n, 0) AS merged,
       (SELECT repo FROM pull_requests AS p WHERE p.repo_key = k.repo_key ORDER BY opened_at DESC LIMIT 1) AS repo
     FROM k LEFT JOIN s USING (repo_key) LEFT JOIN o USING (repo_key) LEFT JOIN m USING (repo_key)`,
  );
  // A repository that spent but opened no PR is named by its newest job still in the queue.
  const jobName = db.prepare<[string], { repo: string | null }>(
    `SELECT json_extract(request, '$.repo.owner') || '/' || json_extract(request, '$.repo.name') AS repo
     FROM jobs WHERE repo_key = ? ORDER BY seq DESC LIMIT 1`,
  );
  const stats = db.transaction((since: number): QueueStats => {
    const rows: RepoFigures[] = figures.all({ since }).map((r) => ({
      repoKey: r.repo_key,
      repo: r.repo ?? jobName.get(r.repo_key)?.repo ?? null,
      spendUsd: r.usd,
      opened: r.opened,
      merged: r.merged,
    }));
    return queueStats(rows);
  });
  return {
    recordPullRequest: (record) => insert.run({ ...checkedRecord(record), now: ctx.now() }).changes === 1,
    recordMerge: (repoKey, number, at) => merge.run({ repoKey, number, at }).changes === 1,
    pullRequestsOpenedSince: (repoKey, since) => opened.all({ repoKey, since }).map((r) => r.opened_at),
    stats: (since = 0) => stats(since),
  };
}
