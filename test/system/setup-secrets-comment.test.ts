import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import nock from 'nock';
import { BUGGY_REPO } from '../cli/helpers.js';
import { startHarness, turn, type Harness } from './harness.js';
import { labeled } from './issue-payloads.js';
import { recordingModel, shownToModel, statusComments } from './pull-fixtures.js';

const SCRIPT = [turn(['edit_file', { path: 'lib.sh', old: '$1 - $2', new: '$1 + $2' }]), turn(['run', { command: 'echo "agent sees [$NPM_TOKEN]"; cat .token-digest' }]), turn(['run_tests', {}]), turn(['finish', { summary: 'add() adds now.' }])];
const TOKEN = 'acme-npm-token-6f1d02';
// Setup leaves a digest of what it was given (the agent reads it), and prints the value (redacted).
const SETUP = 'printf %s "$NPM_TOKEN" | sha256sum > .token-digest; echo "setup sees $NPM_TOKEN"';
const CONFIG = `verify: bash test.sh\nsetup:\n  command: '${SETUP}'\n  secrets: [NPM_TOKEN]\nnetwork:\n  allow: [npm.acme.dev]\n`;

/** Through the real app: setup secrets granted per repository, refused with one comment otherwise. */
describe('setup secrets through the app', () => {
  let h: Harness;
  afterEach(async () => h?.close());
  afterAll(() => nock.restore());

  it('a secret not granted to this repository: one status comment naming it, no setup, no model', async () => {
    const { model, requests } = recordingModel(SCRIPT);
    h = await startHarness({ files: BUGGY_REPO, script: [], model, state: { config: CONFIG }, setupSecrets: [{ name: 'NPM_TOKEN', value: TOKEN, repos: ['acme/other'], installations: null }] });
    expect((await h.send('issues', labeled(h))).status).toBe(200);
    await h.settle();
    const status = statusComments(h, 7);
    expect(status).toHaveLength(1);
    expect(status[0]).toContain(`asks for the setup secret NPM_TOKEN, which the operator of this greenfix has not granted to ${h.state.owner}/${h.state.repo}, so no setup was run`);
    expect(shownToModel(requests)).toBe('');
    expect(h.state.pulls).toHaveLength(0);
    expect(JSON.stringify(h.state.comments)).not.toContain(TOKEN);
  });

  it('a granted secret reaches setup only: the PR is made, the agent saw nothing, no comment holds it', async () => {
    const { model, requests } = recordingModel(SCRIPT);
    h = await startHarness({ files: BUGGY_REPO, script: [], model, state: { config: CONFIG }, setupSecrets: [{ name: 'NPM_TOKEN', value: TOKEN, repos: null, installations: null }] });
    expect((await h.send('issues', labeled(h))).status).toBe(200);
    await h.settle();
    expect(h.state.pulls).toHaveLength(1);
    const shown = shownToModel(requests);
    expect(shown).toContain('agent sees []');
    expect(shown).toContain(createHash('sha256').update(TOKEN).digest('hex'));
    const everything = JSON.stringify({ comments: h.state.comments, pulls: h.state.pulls, checks: h.state.checkRuns, shown });
    expect(everything).not.toContain(TOKEN);
  });
});
