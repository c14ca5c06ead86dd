import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type AddressInfo, type Server } from 'node:net';
import nock from 'nock';
import { BUGGY_REPO } from '../cli/helpers.js';
import { startHarness, turn, type Harness } from './harness.js';
import { labeled } from './issue-payloads.js';

const FIX = turn(['edit_file', { path: 'lib.sh', old: '$1 - $2', new: '$1 + $2' }]);
const SCRIPT = [FIX, turn(['run_tests', {}]), turn(['finish', { summary: 'add() subtracted; it adds now.' }])];
const SECRET = 'redis-secret-55e1';

/** Through the real app: a repository's setup reaching for a host service is refused, and the status comment says so. */
describe('setup egress in the status comment', () => {
  let h: Harness;
  let server: Server;
  let port: number;
  let connections = 0;
  beforeAll(async () => {
    server = createServer((socket) => {
      connections += 1;
      socket.end(`+${SECRET}\r\n`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterEach(async () => h?.close());
  afterAll(async () => {
    nock.restore();
    await new Promise((resolve) => server.close(resolve));
  });

  it('names the refused connection on the setup line; the host service and its secret stay out of reach', async () => {
    const setup = `curl -sS -f http://127.0.0.1:${port}/ || true`;
    const config = `verify: bash test.sh\nsetup: "${setup}"\nnetwork:\n  allow: [registry.npmjs.org]\n`;
    h = await startHarness({ files: BUGGY_REPO, script: SCRIPT, state: { config } });
    expect((await h.send('issues', labeled(h))).status).toBe(200);
    await h.settle();

    const status = h.state.comments.filter((c) => c.body.includes('greenfix:status'));
    expect(status).toHaveLength(1);
    const setupLine = status[0]!.body.split('\n').find((l) => l.includes('Setup'));
    expect(setupLine).toContain('1 connection refused by the egress proxy');
    expect(setupLine).toContain(`127.0.0.1:${port} loopback`);
    expect(connections).toBe(0);
    const everything = JSON.stringify({ comments: h.state.comments, pulls: h.state.pulls, checks: h.state.checkRuns });
    expect(everything).not.toContain(SECRET);
    expect(h.state.pulls).toHaveLength(1);
  });
});
