import { configChangedBy } from '../../src/app/config-push.js';
import { examplePayload } from '../support/webhook-client.js';

describe('configChangedBy (push)', () => {
  const push = (overrides: Record<string, unknown> = {}) => {
    const payload = examplePayload('push');
    return { ...payload, ref: `refs/heads/${payload.repository.default_branch}`, forced: false, created: false, commits: [{ added: [], removed: [], modified: ['README.md'] }], ...overrides };
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
