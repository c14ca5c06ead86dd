import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import nock from 'nock';
import { BUGGY_REPO } from '../cli/helpers.js';
import { startHarness, turn, type Harness } from './harness.js';
import { labeled } from './issue-payloads.js';

const SCRIPT = [
  turn(['edit_file', { path: 'lib.sh', old: '$1 - $2', new: '$1 + $2' }]),
  turn(['run_tests', {}]),
  turn(['finish', { summary: 'add() adds now.' }]),
];
const REPO_ID = 1296269;

/** Every regular file under `dir` (no symlinks followed). */
function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return files(path);
    return e.isFile() && statSync(path).size < 50_000_000 ? [path] : [];
  });
}

describe('installation tokens: least privilege, renewed, never written', () => {
  let h: Harness;
  afterEach(async () => h?.close());
  afterAll(() => nock.restore());

  it('git asks for one repository and contents: write only; REST calls carry repository-scoped tokens', async () => {
    h = await startHarness({ files: BUGGY_REPO, script: SCRIPT, state: { config: 'verify: bash test.sh\n' } });
    await h.send('issues', labeled(h));
    await h.settle();
    expect(h.state.pulls).toHaveLength(1); // fetched and pushed: the git remote takes only the contents token

    const git = h.state.tokenRequests.filter((t) => t.token === h.state.token);
    expect(git.length).toBeGreaterThanOrEqual(1);
    for (const t of git) expect(t.body).toEqual({ repository_ids: [REPO_ID], permissions: { contents: 'write' } });
    expect(h.gitRequests.length).toBeGreaterThan(0);

    // Every API call on the repository (webhook handler and job alike) used a token scoped to it,
    // except reading .github/greenfix.yml (contents: read on all repositories, checked below).
    const scoped = new Set(h.state.tokenRequests.filter((t) => JSON.stringify(t.body.repository_ids) === JSON.stringify([REPO_ID])).map((t) => t.token));
    const repoCalls = h.state.requestTokens.filter(([r]) => r.includes(`/repos/${h.state.owner}/${h.state.repo}/`) && !r.includes('/contents/'));
    expect(repoCalls.length).toBeGreaterThan(5);
    expect(repoCalls.filter(([, token]) => token === null || !scoped.has(token))).toEqual([]);
    // Every read of .github/greenfix.yml (the webhook handler's, for the label, and the job's) has
    // a token that may only read contents.
    const contentsRead = new Set(h.state.tokenRequests.filter((t) => JSON.stringify(t.body) === JSON.stringify({ permissions: { contents: 'read' } })).map((t) => t.token));
    const configCalls = h.state.requestTokens.filter(([r]) => r.includes('/contents/.github'));
    expect(configCalls.length).toBeGreaterThanOrEqual(2);
    expect(configCalls.filter(([, token]) => token === null || !contentsRead.has(token))).toEqual([]);

    // No token is anywhere under the workdir (mirrors, job files), raw or as git's Basic value.
    const secrets = h.state.tokenRequests.flatMap((t) => [t.token, Buffer.from(`x-access-token:${t.token}`).toString('base64')]);
    const leaks = files(join(h.dir, 'work')).filter((path) => {
      const text = readFileSync(path, 'latin1');
      return secrets.some((s) => text.includes(s));
    });
    expect(leaks).toEqual([]);
  });

  it('a token about to expire is not reused: each git operation of the job gets a fresh one', async () => {
    // Tokens that live exactly the renewal margin (10 minutes) are due for renewal at once.
    h = await startHarness({ files: BUGGY_REPO, script: SCRIPT, state: { config: 'verify: bash test.sh\n', tokenLifetimeMs: 10 * 60_000 } });
    await h.send('issues', labeled(h));
    await h.settle();
    expect(h.state.pulls).toHaveLength(1);
    const git = h.state.tokenRequests.filter((t) => t.token === h.state.token);
    expect(git.length).toBeGreaterThanOrEqual(2); // the fetch at the start, the push at the end
  });
});
