/**
 * The forwarder that runs INSIDE the setup sandbox (with the system `node`): it listens on
 * 127.0.0.1:<port> in the sandbox's own empty network namespace, pipes every connection to the
 * egress proxy's Unix socket bound in from the host, and only then starts the setup command as its
 * child. It exits with the command's status, and the command dies with it (bwrap's pid namespace).
 * Argument 3 is a CA bundle for the command's node tools (NODE_EXTRA_CA_CERTS) or "-": set for the
 * child only, because loading it costs every node process ~0.2 s at start and the forwarder needs none.
 * Shipped as source so it needs no build step; written next to the socket for each setup run.
 */
export const FORWARDER_FILE = 'forwarder.cjs';

export const FORWARDER_SOURCE = String.raw`'use strict';
const net = require('node:net');
const { spawn } = require('node:child_process');
const [socketPath, port, caBundle, ...command] = process.argv.slice(2);
const childEnv = caBundle === '-' ? process.env : { NODE_EXTRA_CA_CERTS: caBundle, ...process.env };
const server = net.createServer((client) => {
  const upstream = net.connect(socketPath);
  client.pipe(upstream);
  upstream.pipe(client);
  client.on('error', () => upstream.destroy());
  upstream.on('error', () => client.destroy());
  client.on('close', () => upstream.destroy());
});
server.on('error', (error) => {
  process.stderr.write('greenfix: the egress forwarder could not listen: ' + error.message + '\n');
  process.exit(125);
});
server.listen(Number(port), '127.0.0.1', () => {
  const child = spawn(command[0], command.slice(1), { stdio: 'inherit', env: childEnv });
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('error', (error) => {
    process.stderr.write('greenfix: could not start the setup command: ' + error.message + '\n');
    process.exit(127);
  });
  child.on('exit', (code, signal) => process.exit(code === null ? 128 + (require('node:os').constants.signals[signal] || 1) : code));
});
`;
