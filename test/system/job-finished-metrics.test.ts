import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import nock from 'nock';
import type { ScriptTurn } from '../../src/model/scripted-script.js';
import { BUGGY_REPO } from '../cli/helpers.js';
import { startHarness, turn, type Harness } from './harness.js';
import { labeled } from './issue-payloads.js';
import { subjectKey } from '../../src/triggers/types.js';

const used = (t: ScriptTurn, prompt: number, completion: number): ScriptTurn => ({ ...t, usage: { prompt, completion } });
const SCRIPT = [
  used(turn(['edit_file', { path: 'lib.sh', old: '$1 - $2', new: '$1 + $2' }]), 1000, 40),
  used(turn(['run_tests', {}]), 1500, 10),
  used(turn(['finish', { summary: 'add() adds now.' }]), 2000, 25),
];

function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** A finished job as the worker process sees it: its metrics, and what the retention sweep does with its directory. */
describe('a finished job', () => {
  let h: Harness;
  afterEach(async () => h?.close());
  afterAll(() => nock.restore());
  const jobDirs = () => readdirSync(join(h.dir, 'work', 'jobs'));

  it('counts the prompt and completion tokens the model reported, separately, on /metrics; its directory is kept for the retention', async () => {
    h = await startHarness({ files: BUGGY_REPO, script: SCRIPT, state: { config: 'verify: bash test.sh\n' } });
    await h.send('issues', labeled(h));
    await h.settle();
    expect(h.state.pulls).toHaveLength(1);

    const text = await (await fetch(`${h.app.url}/metrics`)).text();
    expect(sample(text, 'greenfix_tokens_total{kind="prompt"}')).toBe(4500);
    expect(sample(text, 'greenfix_tokens_total{kind="completion"}')).toBe(75);
    expect(sample(text, 'greenfix_agent_steps_total')).toBe(3);

    await h.app.retention!.sweepNow();
    const [dir] = jobDirs();
    expect(existsSync(join(h.dir, 'work', 'jobs', dir!, 'journal.jsonl'))).toBe(true);
  });

  it('with GREENFIX_JOB_RETENTION_DAYS=0, the next sweep deletes its directory', async () => {
    h = await startHarness({ files: BUGGY_REPO, script: SCRIPT, state: { config: 'verify: bash test.sh\n' }, jobRetentionMs: 0 });
    await h.send('issues', labeled(h));
    await h.settle();
    expect(jobDirs()).toHaveLength(1);

    await h.app.retention!.sweepNow();
    expect(jobDirs()).toEqual([]);
  });

  it('with GREENFIX_QUEUE_RETENTION_DAYS at 0, the next sweep forgets the finished job in the queue', async () => {
    h = await startHarness({ files: BUGGY_REPO, script: SCRIPT, state: { config: 'verify: bash test.sh\n' }, queueRetentionMs: 0 });
    await h.send('issues', labeled(h)); // issue #7
    await h.settle();
    const [job] = await h.queue.listBySubject(subjectKey({ id: h.repository['id'] as number }, 7));
    expect(job?.state).toBe('succeeded');
    await h.app.retention!.sweepNow();
    expect(await h.queue.get(job!.id)).toBeNull();
    expect(await h.queue.counts()).toEqual({ queued: 0, running: 0, succeeded: 0, failed: 0, cancelled: 0 });
  });
});
