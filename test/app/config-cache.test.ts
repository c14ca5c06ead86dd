import { createConfigCache } from '../../src/app/config-cache.js';
import type { RepoConfigResult } from '../../src/config/parse-repo-config.js';
import { parseRepoConfig } from '../../src/config/parse-repo-config.js';

const config = (label: string): RepoConfigResult => parseRepoConfig({ label });
const repo = (id: number, owner = 'octo-org') => ({ id, owner });

describe('createConfigCache', () => {
  it('reads once per repository within the TTL; peek knows only a fresh, loaded config', async () => {
    let now = 0;
    const cache = createConfigCache({ now: () => now, ttlMs: 1_000 });
    let reads = 0;
    const load = async () => ((reads += 1), config('fix-me'));
    expect(cache.peek(1)).toBeUndefined();
    const first = cache.get(repo(1), load);
    expect(cache.peek(1)).toBeUndefined(); // still in flight
    expect(await first).toEqual(config('fix-me'));
    expect(cache.peek(1)).toEqual(config('fix-me'));
    await cache.get(repo(1), load);
    expect(reads).toBe(1);
    now = 1_000;
    expect(cache.peek(1)).toBeUndefined();
    await cache.get(repo(1), load);
    expect(reads).toBe(2);
  });

  it('keeps no failed read, and keeps an invalid config (it is an answer)', async () => {
    const cache = createConfigCache({ now: () => 0 });
    await expect(cache.get(repo(1), async () => Promise.reject(new Error('GitHub down')))).rejects.toThrow('GitHub down');
    await Promise.resolve();
    expect(cache.peek(1)).toBeUndefined();
    const invalid = parseRepoConfig({ lable: 'x' });
    expect(invalid.ok).toBe(false);
    await cache.get(repo(1), async () => invalid);
    expect(cache.peek(1)).toEqual(invalid);
  });

  it('forgets one repository, or every repository of an owner', async () => {
    const cache = createConfigCache({ now: () => 0 });
    for (const [id, owner] of [[1, 'Octo-Org'], [2, 'octo-org'], [3, 'other']] as const) await cache.get(repo(id, owner), async () => config('x'));
    cache.forget({ repoId: 3 });
    expect(cache.peek(3)).toBeUndefined();
    expect(cache.peek(1)).toBeDefined();
    cache.forget({ owner: 'OCTO-ORG' });
    expect([cache.peek(1), cache.peek(2)]).toEqual([undefined, undefined]);
  });
});
