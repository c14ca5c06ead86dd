import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import nock from 'nock';
import { BUGGY_REPO, FIX_EDIT } from '../cli/helpers.js';
import { startServeFixture, type ServeFixture } from './serve-fixture.js';
import { killProcessesUnder, within, type ServeProcess } from './serve-process.js';
import { waitForFakeState } from '../support/fake-github.js';

const SCRIPT = { turns: [{ tool_calls: [{ name: FIX_EDIT[0], arguments: FIX_EDIT[1] }] }, { tool_calls: [{ name: 'run_tests', arguments: {} }] }, { tool_calls: [{ name: 'finish', arguments: { summary: 'adds' } }] }] };

/** root's home is 0700 on most servers: a workdir under it must be refused at startup, not at the first job. */
(process.getuid?.() === 0 ? describe : describe.skip)('greenfix serve as root with its workdir under a 0700 directory', () => {
  let fixture: ServeFixture | undefined;
  const processes: ServeProcess[] = [];
  afterEach(async () => {
    for (const p of processes.splice(0)) {
      p.kill();
      await p.exited;
    }
    if (fixture) killProcessesUnder(fixture.dir);
    await fixture?.close();
    fixture = undefined;
  });
  afterAll(() => nock.restore());

  it('exits 2 with the fix in one sentence; once applied, it starts and a job reaches a PR', async () => {
    fixture = await startServeFixture({ files: BUGGY_REPO, script: SCRIPT, config: 'verify: bash test.sh\n' });
    const home = join(fixture.dir, 'root-home');
    mkdirSync(home);
    chmodSync(home, 0o700);
    const workdir = join(home, 'app', '.greenfix');

    const refused = fixture.spawn({ GREENFIX_WORKDIR: workdir });
    processes.push(refused);
    expect(await within(refused.exited, 20_000, 'refusal')).toEqual({ code: 2, signal: null });
    expect(refused.stderr()).toContain(`the workdir ${workdir} is not reachable by the sandbox user (uid 65534) because ${home} (mode 0700) has no o+x: run \`chmod o+x ${home}\``);
    expect(refused.stdout()).not.toContain('greenfix is running');

    chmodSync(home, 0o711);
    const started = fixture.spawn({ GREENFIX_WORKDIR: workdir });
    processes.push(started);
    const url = await within(started.url, 20_000, 'start');
    const t0 = Date.now();
    const answer = await fixture.label(url, 7, 'workdir-1');
    if (answer.status !== 200) throw new Error(started.stdout().slice(-3000));
    await waitForFakeState(fixture.state, (s) => s.pulls.length === 1, 60_000);
    expect(fixture.remoteTree('greenfix/issue-7')).toMatch(/^[0-9a-f]{40}$/);
    process.stdout.write(`serve as root, workdir under /root-like dir: label → PR ${Date.now() - t0} ms\n`);
  }, 90_000);
});
