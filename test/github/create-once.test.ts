import { createOnce } from '../../src/github/create-once.js';
import { GitHubError } from '../../src/github/errors.js';

describe('createOnce', () => {
  it('returns what find sees before creating anything', async () => {
    let creates = 0;
    const r = await createOnce({ find: async () => 'x', create: async () => (creates++, 'y'), attempts: 3, sleep: async () => undefined });
    expect(r).toEqual({ found: 'x' });
    expect(creates).toBe(0);
  });

  it('after a transient failure re-finds first, with exponential backoff when GitHub gave no wait', async () => {
    const calls: string[] = [];
    const sleeps: number[] = [];
    const r = await createOnce({
      find: async () => (calls.push('find'), null),
      create: async () => {
        calls.push('create');
        if (calls.filter((c) => c === 'create').length < 3) throw new GitHubError('network', 'lost');
        return 'made';
      },
      attempts: 3,
      sleep: async (ms) => void sleeps.push(ms),
    });
    expect(r).toEqual({ created: 'made' });
    expect(calls).toEqual(['find', 'create', 'find', 'create', 'find', 'create']);
    expect(sleeps).toEqual([1000, 2000]);
  });

  it('createFirst skips only the first read', async () => {
    const calls: string[] = [];
    const r = await createOnce({
      find: async () => (calls.push('find'), 'there'),
      create: async () => {
        calls.push('create');
        throw new GitHubError('server', 'oops', 502);
      },
      createFirst: true,
      attempts: 3,
      sleep: async () => undefined,
    });
    expect(r).toEqual({ found: 'there' });
    expect(calls).toEqual(['create', 'find']);
  });

  it('rethrows non-transient errors and errors that are not GitHubErrors at once', async () => {
    const base = { find: async () => null, attempts: 5, sleep: async () => undefined };
    await expect(createOnce({ ...base, create: async () => Promise.reject(new GitHubError('validation', 'bad', 422)) })).rejects.toMatchObject({ kind: 'validation' });
    await expect(createOnce({ ...base, create: async () => Promise.reject(new TypeError('bug')) })).rejects.toBeInstanceOf(TypeError);
  });
});
