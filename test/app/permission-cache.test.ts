import { createPermissionCache } from '../../src/app/permission-cache.js';
import type { Permission } from '../../src/github/types.js';

function counting(answer: Permission) {
  const calls = { n: 0 };
  return { calls, load: async () => ((calls.n += 1), answer) };
}

describe('createPermissionCache', () => {
  it('asks GitHub once per repository and login within the TTL, again after it', async () => {
    let now = 0;
    const cache = createPermissionCache({ now: () => now, ttlMs: 1_000 });
    const { calls, load } = counting('write');
    expect(await cache.get(1, 'Maria', load)).toBe('write');
    expect(await cache.get(1, 'maria', load)).toBe('write');
    expect(calls.n).toBe(1);
    expect(await cache.get(2, 'maria', load)).toBe('write');
    expect(calls.n).toBe(2);
    now = 1_000;
    await cache.get(1, 'maria', load);
    expect(calls.n).toBe(3);
  });

  it('shares one lookup in flight, and keeps no failure', async () => {
    const cache = createPermissionCache({ now: () => 0 });
    let release: (p: Permission) => void = () => undefined;
    let calls = 0;
    const slow = () => ((calls += 1), new Promise<Permission>((resolve) => (release = resolve)));
    const both = Promise.all([cache.get(1, 'a', slow), cache.get(1, 'a', slow)]);
    release('admin');
    expect(await both).toEqual(['admin', 'admin']);
    expect(calls).toBe(1);
    await expect(cache.get(1, 'b', async () => Promise.reject(new Error('GitHub down')))).rejects.toThrow('GitHub down');
    await Promise.resolve();
    expect(await cache.get(1, 'b', async () => 'read')).toBe('read');
  });

  it('forgets a login on one repository or on all of them', async () => {
    const cache = createPermissionCache({ now: () => 0 });
    for (const repo of [1, 2]) for (const login of ['maria', 'bob']) await cache.get(repo, login, async () => 'write');
    cache.forget('Maria', 1);
    expect(await cache.get(1, 'maria', async () => 'read')).toBe('read');
    expect(await cache.get(2, 'maria', async () => 'read')).toBe('write');
    cache.forget('maria');
    expect(await cache.get(2, 'maria', async () => 'none')).toBe('none');
    expect(await cache.get(2, 'bob', async () => 'none')).toBe('write');
  });

  it('keeps at most maxEntries, the least recently used going first', async () => {
    const cache = createPermissionCache({ now: () => 0, maxEntries: 2 });
    await cache.get(1, 'a', async () => 'write');
    await cache.get(1, 'b', async () => 'write');
    await cache.get(1, 'a', async () => 'none');
    await cache.get(1, 'c', async () => 'write');
    expect(await cache.get(1, 'a', async () => 'none')).toBe('write');
    expect(await cache.get(1, 'b', async () => 'none')).toBe('none');
  });
});
