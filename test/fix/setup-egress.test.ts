import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { setupNote, setupSummary, runSetup } from '../../src/fix/setup-phase.js';
import { createSandbox } from '../../src/sandbox/create-sandbox.js';
import { testOnlyTreatAsPublic, type Resolver } from '../../src/sandbox/egress-decision.js';
import { sandboxFileOwner } from '../../src/sandbox/ownership.js';
import { prepareWorkspaceOwnership } from '../../src/sandbox/prepare-workspace-ownership.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { runProcess } from '../../src/util/run-process.js';
import { addWorktree } from '../../src/workspace/worktree.js';
import { processesMatching } from '../sandbox/fixtures.js';
import { makeRepo, writeFiles } from '../support/make-repo.js';
import { TempDirs } from '../support/temp-dir.js';

const SECRET = 'redis-secret-7f3a';
const temp = new TempDirs();
const quiet = () => undefined;

/** A host service setup must never reach (think Redis, /metrics): counts connections, answers a secret. */
async function hostService(host: string): Promise<{ server: Server; port: number; connections: () => number }> {
  let connections = 0;
  const server = createServer((socket) => {
    connections += 1;
    socket.end(`HTTP/1.1 200 OK\r\nContent-Length: ${SECRET.length}\r\n\r\n${SECRET}`);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { server, port: (server.address() as AddressInfo).port, connections: () => connections };
}

/** A tiny npm registry with one package, `tiny-dep@1.0.0`, served at http://registry.test:<port>/. */
async function fakeRegistry(scratch: string): Promise<{ server: HttpServer; port: number; hosts: string[] }> {
  writeFiles(scratch, {
    'package/package.json': JSON.stringify({ name: 'tiny-dep', version: '1.0.0', main: 'index.js' }),
    'package/index.js': "module.exports = 'tiny';\n",
  });
  const tgz = join(scratch, 'tiny-dep-1.0.0.tgz');
  const tar = await runProcess({ argv: ['tar', '-czf', tgz, 'package'], cwd: scratch, env: { PATH: '/usr/bin:/bin' }, timeoutMs: 30_000 });
  if (tar.exitCode !== 0) throw new Error(tar.stderr);
  const tarball = readFileSync(tgz);
  const hosts: string[] = [];
  const server = createHttpServer((req, res) => {
    hosts.push(req.headers.host ?? '');
    const base = `http://${req.headers.host}`;
    if (req.url === '/tiny-dep') {
      const integrity = `sha512-${createHash('sha512').update(tarball).digest('base64')}`;
      const shasum = createHash('sha1').update(tarball).digest('hex');
      const version = { name: 'tiny-dep', version: '1.0.0', dist: { tarball: `${base}/tiny-dep/-/tiny-dep-1.0.0.tgz`, integrity, shasum } };
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify({ name: 'tiny-dep', 'dist-tags': { latest: '1.0.0' }, versions: { '1.0.0': version } }));
    }
    if (req.url === '/tiny-dep/-/tiny-dep-1.0.0.tgz') {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': tarball.length });
      return void res.end(tarball);
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end('{"error":"not found"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, hosts };
}

function hostAddress(): string | null {
  for (const list of Object.values(networkInterfaces())) {
    for (const info of list ?? []) if (info.family === 'IPv4' && !info.internal) return info.address;
  }
  return null;
}

describe('setup egress, end to end (real bwrap, real proxy, runSetup)', () => {
  let sandbox: Sandbox;
  let loopback: Awaited<ReturnType<typeof hostService>>;
  let anyAddress: Awaited<ReturnType<typeof hostService>>;
  let registry: Awaited<ReturnType<typeof fakeRegistry>>;
  const registryScratch = new TempDirs();

  beforeAll(async () => {
    loopback = await hostService('127.0.0.1');
    anyAddress = await hostService('0.0.0.0');
    registry = await fakeRegistry(registryScratch.make('gf-registry-'));
    // The test-only policy lets exactly the fake registry count as a public host named registry.test.
    const resolve: Resolver = async (host) => (host === 'registry.test' ? [{ address: '127.0.0.1', family: 4 }] : []);
    const policy = testOnlyTreatAsPublic([`127.0.0.1:${registry.port}`]);
    sandbox = await createSandbox({ env: { PATH: process.env.PATH }, log: quiet, egress: { policy, resolve } });
  });
  afterAll(async () => {
    for (const server of [loopback.server, anyAddress.server, registry.server]) await new Promise((resolve) => server.close(resolve));
    registryScratch.cleanup();
  });
  afterEach(() => temp.cleanup());

  async function workspace(files: Record<string, string> = { 'README.md': 'x\n' }) {
    const parent = temp.make('gf-egress-');
    chmodSync(parent, 0o711);
    mkdirSync(join(parent, 'repo'));
    const repo = makeRepo(join(parent, 'repo'), { ...files, '.gitignore': 'node_modules/\n' });
    const state = join(parent, 'state');
    const ws = await addWorktree({ repo, path: join(parent, 'wt'), ref: 'main', stateDir: state });
    await prepareWorkspaceOwnership(ws.root, sandboxFileOwner());
    return ws;
  }

  it('curl and node through the proxy to 127.0.0.1 and ::ffff:127.0.0.1 are refused and named; the host service sees nothing', async () => {
    const port = loopback.port;
    const connectScript =
      "const u=new URL(process.env.HTTPS_PROXY);const r=require('http').request({host:u.hostname,port:u.port,method:'CONNECT',path:process.argv[1]});" +
      "r.on('connect',(res,s)=>{console.log('CONNECT '+process.argv[1]+' -> '+res.statusCode);s.destroy();});r.on('error',(e)=>console.log('error '+e.message));r.end();";
    const command = [
      `curl -sS -f http://127.0.0.1:${port}/ ; echo "curl-v4=$?"`,
      `curl -sS -f "http://[::ffff:127.0.0.1]:${port}/" ; echo "curl-mapped=$?"`,
      `node -e "${connectScript}" "127.0.0.1:${port}"`,
      `node -e "${connectScript}" "[::ffff:127.0.0.1]:${port}"`,
      'exit 3',
    ].join('; ');
    const ws = await workspace();
    const setup = await runSetup({ workspace: ws, sandbox, timeoutMs: 60_000 }, command);

    expect(setup.exitCode).toBe(3);
    expect(setup.outputTail).toMatch(/curl-v4=22/);
    expect(setup.outputTail).toMatch(/curl-mapped=22/);
    expect(setup.outputTail).toContain(`CONNECT 127.0.0.1:${port} -> 403`);
    expect(setup.outputTail).toContain(`CONNECT [::ffff:127.0.0.1]:${port} -> 403`);
    expect(setup.outputTail).not.toContain(SECRET);
    expect(loopback.connections()).toBe(0);
    expect(setup.egress).toEqual({
      refusedCount: 4,
      refused: [
        { target: `127.0.0.1:${port}`, reason: 'loopback', count: 2 },
        { target: `[::ffff:7f00:1]:${port}`, reason: 'loopback', count: 2 },
      ],
      connectedCount: 0,
      connections: [],
    });
    const summary = setupSummary(command, setup);
    expect(summary).toContain(`exit 3`);
    expect(summary).toContain(`4 connections refused by the egress proxy: 127.0.0.1:${port} loopback ×2, [::ffff:7f00:1]:${port} loopback ×2`);
    expect(setupNote(command, setup)).toContain(`127.0.0.1:${port} loopback`);
  });

  it('without the proxy, raw TCP reaches neither 127.0.0.1 nor the host’s own address', async () => {
    const address = hostAddress();
    const targets = [`127.0.0.1/${loopback.port}`, `127.0.0.1/${anyAddress.port}`, ...(address ? [`${address}/${anyAddress.port}`] : [])];
    const command = targets.map((t) => `(exec 3<>/dev/tcp/${t} && echo "reached ${t}") 2>/dev/null || echo "no route ${t}"`).join('; ');
    const ws = await workspace();
    const setup = await runSetup({ workspace: ws, sandbox, timeoutMs: 60_000 }, `${command}; curl -sS --noproxy '*' -m 5 http://127.0.0.1:${loopback.port}/ || true`);
    for (const t of targets) expect(setup.outputTail).toContain(`no route ${t}`);
    expect(setup.outputTail).not.toMatch(/reached|redis-secret/);
    expect(loopback.connections()).toBe(0);
    expect(anyAddress.connections()).toBe(0);
  });

  it('the command gets the proxy variables (and the system CAs for node tools); its exit status passes through the forwarder', async () => {
    const ws = await workspace();
    const probe = await runSetup({ workspace: ws, sandbox, timeoutMs: 60_000 }, 'echo "$HTTPS_PROXY $npm_config_proxy [$NO_PROXY] ${NODE_EXTRA_CA_CERTS:-none}"; test -e /etc/resolv.conf || echo no-resolv; exit 5');
    expect(probe.exitCode).toBe(5);
    const ca = existsSync('/etc/ssl/certs/ca-certificates.crt') ? '/etc/ssl/certs/ca-certificates.crt' : 'none';
    expect(probe.outputTail).toBe(`http://127.0.0.1:3128 http://127.0.0.1:3128 [] ${ca}\nno-resolv`);
    const killed = await runSetup({ workspace: ws, sandbox, timeoutMs: 60_000 }, 'kill -TERM $$');
    expect(killed.exitCode).toBe(128 + 15);
  });

  it('a setup that outlives its timeout is killed with its forwarder; nothing is left running', async () => {
    const ws = await workspace();
    const marker = `egress-timeout-${process.pid}-${Date.now()}`;
    const setup = await runSetup({ workspace: ws, sandbox, timeoutMs: 1_500 }, `sleep 60 # ${marker}`);
    expect(setup.timedOut).toBe(true);
    expect(processesMatching(marker)).toEqual([]);
  });

  it('npm install from a registry reached through the proxy works (the allow-list naming it)', async () => {
    const ws = await workspace({ 'package.json': JSON.stringify({ name: 'app', version: '1.0.0', dependencies: { 'tiny-dep': '^1.0.0' } }) });
    const command = `npm install --registry http://registry.test:${registry.port}/ --no-audit --no-fund --fetch-retries=0`;
    const before = registry.hosts.length;
    const setup = await runSetup({ workspace: ws, sandbox, timeoutMs: 120_000, egressAllow: ['registry.test'] }, command);
    expect(setup).toMatchObject({ exitCode: 0, timedOut: false });
    expect(readFileSync(join(ws.root, 'node_modules/tiny-dep/index.js'), 'utf8')).toBe("module.exports = 'tiny';\n");
    expect(existsSync(join(ws.root, 'package-lock.json'))).toBe(true);
    expect(registry.hosts.slice(before)).toEqual(expect.arrayContaining([`registry.test:${registry.port}`]));
    // Every connection it made is listed, with its bytes: in the setup line and the model's note.
    expect(setup.egress).toMatchObject({ refusedCount: 0, refused: [], connections: [{ target: `registry.test:${registry.port}`, address: '127.0.0.1' }] });
    expect(setup.egress!.connections![0]!.bytesIn).toBeGreaterThan(0);
    const listed = new RegExp(`\\d+ connections? made by the egress proxy: registry\\.test:${registry.port} \\[127\\.0\\.0\\.1\\]( ×\\d+)? \\([\\d.]+ [kM]?B in, [\\d.]+ [kM]?B out\\)`);
    expect(setupSummary(command, setup)).toMatch(listed);
    expect(setupNote(command, setup)).toMatch(listed);
  });

  it('network.allow refuses a registry that is not on it, and says so', async () => {
    const ws = await workspace({ 'package.json': JSON.stringify({ name: 'app', version: '1.0.0', dependencies: { 'tiny-dep': '^1.0.0' } }) });
    const command = `npm install --registry http://registry.test:${registry.port}/ --no-audit --no-fund --fetch-retries=0`;
    const before = registry.hosts.length;
    const setup = await runSetup({ workspace: ws, sandbox, timeoutMs: 120_000, egressAllow: ['registry.npmjs.org'] }, command);
    expect(setup.exitCode).not.toBe(0);
    expect(existsSync(join(ws.root, 'node_modules/tiny-dep'))).toBe(false);
    expect(registry.hosts.length).toBe(before);
    expect(setup.egress?.refused[0]).toMatchObject({ target: `registry.test:${registry.port}`, reason: 'not in the allow-list' });
    expect(setupSummary(command, setup)).toContain(`registry.test:${registry.port} not in the allow-list`);
  });
});
