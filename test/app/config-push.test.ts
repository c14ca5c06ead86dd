import { configChangedBy } from '../../src/app/config-push.js';

describe('configChangedBy (push)', () => {
  const push = (overrides: Record<string, unknown> = {}) => {
    const repository = { id: 1296269, name: 'widgets', full_name: 'octo-org/widgets', default_branch: 'main', owner: { login: 'octo-org', id: 1 } };
    return { ref: 'refs/heads/main', before: 'a'.repeat(40), after: 'b'.repeat(40), repository, forced: false, created: false, commits: [{ added: [], removed: [], modified: ['README.md'] }], ...overrides };
  };

  it('forgets the repository when its default branch gets the file changed, added or removed', () => {
    const payload = push();
    expect(configChangedBy(payload)).toBeNull();
    for (const change of ['added', 'modified', 'removed']) {
      expect(configChangedBy(push({ commits: [{ added: [], removed: [], modified: [], [change]: ['.github/greenfix.yml'] }] }))).toEqual({ repoId: payload.repository.id });
    }
  });

  it('ignores other branches; counts a push whose files are not all listed as touching it', () => {
    const touching = [{ added: [], removed: [], modified: ['.github/greenfix.yml'] }];
    expect(configChangedBy(push({ ref: 'refs/heads/feature', commits: touching }))).toBeNull();
    expect(configChangedBy(push({ forced: true }))).not.toBeNull();
    expect(configChangedBy(push({ created: true }))).not.toBeNull();
    expect(configChangedBy(push({ commits: Array.from({ length: 20 }, () => ({ added: [], removed: [], modified: ['a.ts'] })) }))).not.toBeNull();
    for (const garbage of [null, 42, {}, { ref: 'refs/heads/main' }]) expect(configChangedBy(garbage)).toBeNull();
  });

  it("forgets every repository of the owner when the owner's .github repository changes it", () => {
    const payload = push({ commits: [{ added: [], removed: [], modified: ['.github/greenfix.yml'] }] });
    const base = { ...payload, repository: { ...payload.repository, name: '.github' } };
    expect(configChangedBy(base)).toEqual({ owner: payload.repository.owner.login });
  });
});
