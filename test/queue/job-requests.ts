import type { JobRequest } from '../../src/triggers/types.js';

/** A valid issue JobRequest for repository `repoId`, issue `number`. */
export function jobRequest(repoId: number, number: number, extra: Partial<JobRequest> = {}): JobRequest {
  return {
    kind: 'issue',
    installationId: 7,
    repo: { id: repoId, owner: 'octo', name: `repo-${repoId}`, cloneUrl: `https://github.com/octo/repo-${repoId}.git`, defaultBranch: 'main' },
    number,
    target: 'issue',
    title: `Issue ${number}`,
    body: 'the tests fail',
    sender: 'maintainer',
    ...extra,
  };
}
