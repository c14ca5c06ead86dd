import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import nock from 'nock';
import { createChatModel } from '../../src/model/create-chat-model.js';
import { modelSettingsFromEnv } from '../../src/config/model-settings.js';
import { modelConfigOf } from '../../src/model/model-config.js';
import { BUGGY_REPO } from '../cli/helpers.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { startHarness, turn, type Harness } from './harness.js';
import { labeled } from './issue-payloads.js';

const SCRIPT = [
  turn(['edit_file', { path: 'lib.sh', old: '$1 - $2', new: '$1 + $2' }]),
  turn(['run_tests', {}]),
  turn(['finish', { summary: 'add() adds.' }]),
];
const CONFIG = 'verify: bash test.sh\n';

describe('when something fails', () => {
  let h: Harness;
  let openai: FakeOpenAIServer | undefined;
  afterEach(async () => {
    await h?.close();
    await openai?.close();
    openai = undefined;
  });
  afterAll(() => nock.restore());

  it('says honestly that the model failed, opens no PR, and never shows the key', async () => {
    openai = await FakeOpenAIServer.start();
    openai.script({ status: 401, json: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } } });
    const key = 'sk-test-secret-key-1234567890';
    const model = createChatModel(modelConfigOf(modelSettingsFromEnv({ OPENAI_BASE_URL: openai.baseURL, OPENAI_API_KEY: key, GREENFIX_MODEL: 'gpt-test' })));
    h = await startHarness({ files: BUGGY_REPO, script: [], model, state: { config: CONFIG } });
    await h.send('issues', labeled(h));
    await h.settle();
    expect(openai.requests).toHaveLength(1); // auth errors are not retried
    expect(h.state.pulls).toHaveLength(0);
    expect(h.remoteTree('greenfix/issue-7')).toBeNull();
    const status = h.state.comments.filter((c) => c.body.includes('greenfix:status'));
    expect(status).toHaveLength(1);
    expect(status[0]!.body).toContain('The model could not be used (auth)');
    expect(status[0]!.body).toContain('/agent retry');
    expect(JSON.stringify(h.state)).not.toContain(key);
  });

  it('makes one comment, one PR and one check run when GitHub answers 5xx or 429 to the creates', async () => {
    h = await startHarness({ files: BUGGY_REPO, script: SCRIPT, state: { config: CONFIG } });
    h.state.failures.push(
      // GitHub made the comment and the PR, then answered 502: a blind retry would duplicate them.
      { method: 'POST', path: /\/issues\/7\/comments$/, status: 502, apply: true, times: 1 },
      { method: 'POST', path: /\/pulls$/, status: 502, apply: true, times: 1 },
      { method: 'POST', path: /\/check-runs$/, status: 429, apply: false, times: 1, headers: { 'retry-after': '0' } },
    );
    await h.send('issues', labeled(h));
    await h.settle();
    expect(h.state.failures.every((f) => f.times === 0)).toBe(true);
    expect(h.state.comments.filter((c) => c.body.includes('greenfix:status'))).toHaveLength(1);
    expect(h.state.pulls).toHaveLength(1);
    expect(h.state.checkRuns).toHaveLength(1);
    expect(h.state.checkRuns[0]).toMatchObject({ conclusion: 'success' });
    expect(h.state.comments[0]!.body).toContain(`#${h.state.pulls[0]!.number}`);
  });
});
