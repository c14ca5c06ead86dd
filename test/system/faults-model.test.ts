import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import nock from 'nock';
import { createChatModel } from '../../src/model/create-chat-model.js';
import { modelSettingsFromEnv } from '../../src/config/model-settings.js';
import { modelConfigOf } from '../../src/model/model-config.js';
import type { ChatModel } from '../../src/model/types.js';
import { BUGGY_REPO } from '../cli/helpers.js';
import { completion, FakeOpenAIServer } from '../support/fake-openai-server.js';
import { startHarness, type Harness } from './harness.js';
import { labeled } from './issue-payloads.js';

const CONFIG = 'verify: bash test.sh\n';
const KEY = 'sk-fault-test-key-0987654321';

/** One wire-format assistant turn calling `name`. */
function toolTurn(n: number, name: string, args: Record<string, unknown>) {
  return { status: 200, json: completion({ content: null, tool_calls: [{ id: `call_${n}`, type: 'function', function: { name, arguments: JSON.stringify(args) } }] }) };
}

/**
 * The real OpenAI client against a loopback endpoint, with the real retry loop and attempt
 * deadline; only the waits are recorded instead of slept (so backoff is asserted, not timed).
 */
function realClient(openai: FakeOpenAIServer, waits: number[]): ChatModel {
  const config = modelConfigOf(modelSettingsFromEnv({ OPENAI_BASE_URL: openai.baseURL, OPENAI_API_KEY: KEY, GREENFIX_MODEL: 'gpt-test' }));
  return createChatModel(
    { ...config, timeoutMs: 400, retry: { maxRetries: 5, baseDelayMs: 100, maxDelayMs: 60_000 } },
    { sleep: async (ms) => void waits.push(ms), random: () => 0.5 },
  );
}

describe('when the model endpoint misbehaves', () => {
  let h: Harness | undefined;
  let openai: FakeOpenAIServer | undefined;
  afterEach(async () => {
    await h?.close();
    await openai?.close();
    h = undefined;
    openai = undefined;
  });
  afterAll(() => nock.restore());

  it('backs off through 429 with Retry-After, 5xx, a silent and a stalled answer, then opens one PR', async () => {
    openai = await FakeOpenAIServer.start();
    openai.script(
      { status: 429, headers: { 'retry-after': '2' }, json: { error: { message: 'Rate limit reached', type: 'requests' } } },
      { status: 500, json: { error: { message: 'internal error' } } },
      { status: 503, json: { error: { message: 'overloaded' } } },
      { never: true },
      { stall: true }, // headers, then half a body
      toolTurn(1, 'edit_file', { path: 'lib.sh', old: '$1 - $2', new: '$1 + $2' }),
      toolTurn(2, 'run_tests', {}),
      toolTurn(3, 'finish', { summary: 'add() adds.' }),
    );
    const waits: number[] = [];
    h = await startHarness({ files: BUGGY_REPO, script: [], model: realClient(openai, waits), state: { config: CONFIG } });

    await h.send('issues', labeled(h));
    await h.settle();

    // 5 failed attempts of the first step, then one request per step.
    expect(openai.requests).toHaveLength(8);
    const firstStep = openai.requests.slice(0, 6).map((r) => JSON.stringify(r.body));
    expect(new Set(firstStep).size).toBe(1); // the same request, re-sent
    // Retry-After (2 s) honoured, then exponential backoff (random 0.5 of 200, 400, 800, 1600 ms).
    expect(waits).toEqual([2000, 100, 200, 400, 800]);
    expect(h.state.pulls).toHaveLength(1);
    expect(h.remoteTree('greenfix/issue-7')).not.toBeNull();
    const jobs = await h.queue.listBySubject('1296269#7');
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ state: 'succeeded', attempts: 1 });
    const status = h.state.comments.filter((c) => c.body.includes('greenfix:status'));
    expect(status).toHaveLength(1);
    expect(status[0]!.body).toContain(`#${h.state.pulls[0]!.number}`);
  });

  it('stops at a 401: one request, one failure comment, no PR, the job is not retried', async () => {
    openai = await FakeOpenAIServer.start();
    openai.script({ status: 401, json: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } } });
    const waits: number[] = [];
    h = await startHarness({ files: BUGGY_REPO, script: [], model: realClient(openai, waits), state: { config: CONFIG } });

    await h.send('issues', labeled(h));
    await h.settle();

    expect(openai.requests).toHaveLength(1);
    expect(waits).toEqual([]);
    expect(h.state.pulls).toHaveLength(0);
    expect(h.remoteTree('greenfix/issue-7')).toBeNull();
    const jobs = await h.queue.listBySubject('1296269#7');
    expect(jobs).toHaveLength(1);
    expect(jobs[0]!.attempts).toBe(1);
    // The run ended (the outcome is a reported failure); the queue has nothing to retry.
    expect(jobs[0]).toMatchObject({ state: 'succeeded', result: { status: 'not_verified' } });
    expect(await h.queue.counts()).toMatchObject({ queued: 0, running: 0 });
    const status = h.state.comments.filter((c) => c.body.includes('greenfix:status'));
    expect(status).toHaveLength(1);
    expect(status[0]!.body).toContain('(auth)');
    expect(JSON.stringify(h.state)).not.toContain(KEY);
  });
});
