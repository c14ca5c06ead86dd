import { describe, expect, it } from '@jest/globals';
import { existsSync, lstatSync, readFileSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { FORWARDER_FILE, FORWARDER_SOURCE } from '../../src/sandbox/egress-forwarder.js';
import { openEgressSession, PROXY_SOCKET, proxyEnvironment } from '../../src/sandbox/egress-session.js';
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
    expect(session.report()).toEqual({ refusedCount: 1, refused: [{ target: '169.254.169.254:80', reason: 'link-local', count: 1 }] });

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
