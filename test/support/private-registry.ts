import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { runProcess } from '../../src/util/run-process.js';
import { writeFiles } from './make-repo.js';

export interface PrivateRegistry {
  server: Server;
  port: number;
  /** The Authorization header of every request, in order (what the registry was sent). */
  authorizations: (string | null)[];
  /** The lockfile entry of the one package, for a package-lock.json the test writes. */
  lockEntry(host: string): { version: string; resolved: string; integrity: string };
  close(): Promise<void>;
}

/**
 * A private npm registry on loopback with one package, `@acme/secret-dep@1.0.0`: packument and
 * tarball, both answered only to `Authorization: Bearer <token>` (401 otherwise), as a company
 * registry would.
 */
export async function startPrivateRegistry(scratch: string, token: string): Promise<PrivateRegistry> {
  writeFiles(scratch, {
    'package/package.json': JSON.stringify({ name: '@acme/secret-dep', version: '1.0.0', main: 'index.js' }),
    'package/index.js': "module.exports = 'private';\n",
  });
  const tgz = join(scratch, 'secret-dep-1.0.0.tgz');
  const tar = await runProcess({ argv: ['tar', '-czf', tgz, 'package'], cwd: scratch, env: { PATH: '/usr/bin:/bin' }, timeoutMs: 30_000 });
  if (tar.exitCode !== 0) throw new Error(tar.stderr);
  const tarball = readFileSync(tgz);
  const integrity = `sha512-${createHash('sha512').update(tarball).digest('base64')}`;
  const authorizations: (string | null)[] = [];
  const tarballPath = '/@acme/secret-dep/-/secret-dep-1.0.0.tgz';
  const server = createServer((req, res) => {
    authorizations.push(req.headers.authorization ?? null);
    if (req.headers.authorization !== `Bearer ${token}`) {
      res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer' });
      return void res.end('{"error":"authentication required"}');
    }
    const url = decodeURIComponent(req.url ?? '');
    if (url === '/@acme/secret-dep') {
      const version = { name: '@acme/secret-dep', version: '1.0.0', dist: { tarball: `http://${req.headers.host}${tarballPath}`, integrity, shasum: createHash('sha1').update(tarball).digest('hex') } };
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify({ name: '@acme/secret-dep', 'dist-tags': { latest: '1.0.0' }, versions: { '1.0.0': version } }));
    }
    if (url === tarballPath) {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': tarball.length });
      return void res.end(tarball);
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end('{"error":"not found"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    server,
    port,
    authorizations,
    lockEntry: (host) => ({ version: '1.0.0', resolved: `http://${host}${tarballPath}`, integrity }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
