import { createServer } from 'node:net';

/** A loopback TCP port free right now (the servers the tests start listen on it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no free loopback port'))));
    });
  });
}
