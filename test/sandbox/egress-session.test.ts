import { describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { FORWARDER_FILE, FORWARDER_SOURCE } from '../../src/sandbox/egress-forwarder.js';
import { openEgressSession, PROXY_SOCKET, proxyEnvironment, sweepEgressDirs } from '../../src/sandbox/egress-session.js';
import { checkVariable } from '../../src/sandbox/environment.js';
import { isRoot } from './fixtures.js';

describe('an egress session (one proxy per setup run)', () => {
  it('puts the socket (owned by the sandbox uid, 0600) and the forwarder in a fresh directory, and removes both when closed', async () => {
    const runAs = isRoot ? { uid: 65534, gid: 65534 } : null;
    const session = await openEgressSession({ allow: [], runAs });
    try {
    const socket = join(session.dir, PROXY_SOCKET);
    expect(lstatSync(socket).isSocket()).toBe(true);
    expect(statSync(socket).mode & 0o777).toBe(0o600);
    if (runAs) expect(statSync(socket).uid).toBe(65534);
    expect(statSync(session.dir).mode & 0o777).toBe(0o711);
    expect(readFileSync(join(session.dir, FORWARDER_FILE), 'utf8')).toBe(FORWARDER_SOURCE);

    // A raw socket, not http.request: nock (loaded by other suites in the same worker) patches http.
    const answer = await new Promise<string>((resolve, reject) => {
      const client = connect(socket);
      let text = '';
      client.on('connect', () => client.write('CONNECT 169.254.169.254:80 HTTP/1.1\r\n\r\n'));
      client.on('data', (c: Buffer) => (text += c.toString()));
      client.on('close', () => resolve(text));
      client.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 403 /);
    expect(session.report()).toEqual({ refusedCount: 1, refused: [{ target: '169.254.169.254:80', reason: 'link-local', count: 1 }], connectedCount: 0, connections: [] });

    } finally {
      await session.close();
    }
    expect(existsSync(session.dir)).toBe(false);
  });

  it('proxy variables pass the sandbox’s secret filter and leave nothing to bypass the proxy', () => {
    const env = proxyEnvironment(3128);
    for (const [name, value] of Object.entries(env)) expect(() => checkVariable(name, value)).not.toThrow();
    expect(env).toMatchObject({ HTTP_PROXY: 'http://127.0.0.1:3128', https_proxy: 'http://127.0.0.1:3128', npm_config_https_proxy: 'http://127.0.0.1:3128', NO_PROXY: '' });

  });
});

describe('session directories a killed process left behind', () => {
  it('are removed by the next sweep; a live process’s directory and unrelated names stay', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'greenfix-sweep-test-'));
    try {
      // A real process opens a session, then dies by SIGKILL (no close, no cleanup).
      const script = `import { openEgressSession } from ${JSON.stringify(pathToFileURL(resolve('dist/src/sandbox/egress-session.js')).href)};
        const s = await openEgressSession({ allow: [], runAs: null, tmp: ${JSON.stringify(tmp)} });
        process.stdout.write(s.dir + '\\n');
        setInterval(() => undefined, 1000);`;
      const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
      const [line] = (await once(child.stdout, 'data')) as [Buffer];
      const killedDir = line.toString().trim();
      child.kill('SIGKILL');
      await once(child, 'exit');
      expect(existsSync(killedDir)).toBe(true);

      const live = await openEgressSession({ allow: [], runAs: null, tmp });
      mkdirSync(join(tmp, 'greenfix-egress-notes'));
      try {
        expect(sweepEgressDirs(tmp)).toEqual([basename(killedDir)]);
        expect(existsSync(killedDir)).toBe(false);
        expect(existsSync(live.dir)).toBe(true);
        expect(existsSync(join(tmp, 'greenfix-egress-notes'))).toBe(true);
      } finally {
        await live.close();
      }
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
