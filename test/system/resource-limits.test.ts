import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import nock from 'nock';
import { BUGGY_REPO } from '../cli/helpers.js';
import { startHarness, turn, type Harness } from './harness.js';
import { labeled } from './issue-payloads.js';

const CONFIG = 'verify: bash test.sh\n';

/** The per-job disk cap through the real app: webhook → job → sandbox → status comment. */
describe('resources per job', () => {
  let h: Harness;
  afterEach(async () => {
    await h?.close();
  });
  afterAll(() => nock.restore());

  it('a job whose command fills the disk past GREENFIX_SANDBOX_DISK_MB ends "disk limit reached", opens no PR and is not retried', async () => {
    const script = [
      turn(['edit_file', { path: 'lib.sh', old: '$1 - $2', new: '$1 + $2' }]),
      turn(['run', { command: 'head -c 30000000 /dev/urandom > big; sleep 20' }]),
      turn(['run_tests', {}]),
      turn(['finish', { summary: 'add() adds.' }]),
    ];
    h = await startHarness({ files: BUGGY_REPO, script, state: { config: CONFIG }, sandboxEnv: { GREENFIX_SANDBOX_DISK_MB: '10' } });
    await h.send('issues', labeled(h));
    await h.settle();
    expect(h.state.pulls).toHaveLength(0);
    expect(h.remoteTree('greenfix/issue-7')).toBeNull();
    const status = h.state.comments.filter((c) => c.body.includes('greenfix:status'));
    expect(status).toHaveLength(1);
    expect(status[0]!.body).toContain('disk limit reached: the worktree grew past 10 MB');
    expect(status[0]!.body).not.toMatch(/greenfix will try again/);
  });
});
