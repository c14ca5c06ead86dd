import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import { sweepPackageCaches } from '../../src/workspace/package-cache-sweep.js';
import { cleanup, tempDir } from '../support/temp-dir.js';

const MB = 1024 * 1024;
const DAY = 24 * 3_600_000;

describe('sweepPackageCaches', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) cleanup(dir);
  });

  /** A repository's cache holding `mb` MB, last used `daysAgo` days before `now`. */
  const cache = (root: string, name: string, mb: number, daysAgo: number, now: number) => {
    const path = join(root, name);
    mkdirSync(join(path, 'npm'), { recursive: true });
    writeFileSync(join(path, 'npm', 'blob'), Buffer.alloc(mb * MB, 7));
    const at = new Date(now - daysAgo * DAY);
    utimesSync(path, at, at);
  };

  it('removes by age, then a repository past its cap, then the least recently used past the total', async () => {
    dir = tempDir('greenfix-pkg-sweep-');
    const now = Date.now();
    cache(dir, 'old', 1, 40, now);
    cache(dir, 'huge', 6, 0, now); // the attack: one setup wrote past every limit
    cache(dir, 'recent', 2, 1, now);
    cache(dir, 'older', 2, 3, now);
    cache(dir, 'least-recent', 2, 5, now);
    const swept = await sweepPackageCaches(dir, { repoBytes: 5 * MB, totalBytes: 5 * MB, maxAgeMs: 30 * DAY }, now);
    expect(swept.removed.map((r) => [r.name, r.why]).sort()).toEqual([
      ['huge', 'repository cap'],
      ['least-recent', 'total cap'],
      ['old', 'age'],
    ]);
    expect(['recent', 'older'].every((n) => existsSync(join(dir!, n)))).toBe(true);
    expect(['old', 'huge', 'least-recent'].some((n) => existsSync(join(dir!, n)))).toBe(false);
    expect(swept.keptBytes).toBeLessThanOrEqual(5 * MB);
  });

  it('is a no-op on a missing directory', async () => {
    expect(await sweepPackageCaches('/nonexistent/package-cache', { repoBytes: 1, totalBytes: 1, maxAgeMs: 1 }, Date.now())).toEqual({ removed: [], keptBytes: 0 });
  });
});
