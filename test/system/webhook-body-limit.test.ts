import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import nock from 'nock';
import { BUGGY_REPO } from '../cli/helpers.js';
import { examplePayload, sendWebhook, signWebhook, withInstallation } from '../support/webhook-client.js';
import { getStatus } from '../support/http-status.js';
import { INSTALLATION, SECRET, startHarness, turn, type Harness } from './harness.js';

const MB = 1024 * 1024;
const LIMIT = 5 * MB; // the default: the harness sets no GREENFIX_WEBHOOK_MAX_BYTES
const CHUNK = Buffer.alloc(64 * 1024, 'a');

interface Streamed {
  status: number | null;
  /** Bytes the client had written when the 413 arrived. */
  writtenAtAnswer: number | null;
  /** Bytes the client got written before the server closed the connection. */
  written: number;
}

/**
 * POSTs up to `total` bytes in 64 KiB chunks over a raw TCP socket, each when the socket takes
 * more (`drain`), and keeps writing after the answer: it resolves when the server has closed its
 * side of the connection (or the whole body went out), with the status it answered. A raw socket, not
 * `http.request`: nock's interceptor wraps every ClientRequest in this process, and a write
 * cancelled under it (ECANCELED when the server hangs up mid-body) surfaced as an uncaught error.
 */
function stream(url: string, total: number, headers: Record<string, string>): Promise<Streamed> {
  return new Promise((resolve) => {
    const target = new URL(url);
    const out: Streamed = { status: null, writtenAtAnswer: null, written: 0 };
    const head = { host: target.host, 'content-type': 'application/json', 'x-github-event': 'issues', 'x-github-delivery': 'big', 'x-hub-signature-256': 'sha256=00', ...headers };
    if (!('content-length' in head)) Object.assign(head, { 'transfer-encoding': 'chunked' });
    const chunked = 'transfer-encoding' in head;
    const socket = connect(Number(target.port), target.hostname);
    let done = false;
    let answer = '';
    const finish = () => {
      if (done) return;
      done = true;
      socket.destroy();
      resolve(out);
    };
    socket.on('error', finish);
    socket.on('close', finish);
    socket.on('end', finish); // the server answered and half-closed: it reads no more
    socket.on('data', (data: Buffer) => {
      if (out.status !== null) return;
      answer += data.toString('latin1');
      const status = /^HTTP\/1\.1 (\d{3}) /.exec(answer);
      if (status) {
        out.status = Number(status[1]);
        out.writtenAtAnswer = out.written;
      }
    });
    const frame = chunked ? Buffer.concat([Buffer.from(`${CHUNK.length.toString(16)}\r\n`), CHUNK, Buffer.from('\r\n')]) : CHUNK;
    const pump = () => {
      while (!done && out.written < total) {
        out.written += CHUNK.length;
        if (!socket.write(frame)) return void socket.once('drain', pump);
      }
      if (!done) socket.end(chunked ? '0\r\n\r\n' : '');
    };
    const lines = [`POST ${target.pathname} HTTP/1.1`, ...Object.entries(head).map(([k, v]) => `${k}: ${v}`), '', ''];
    socket.write(lines.join('\r\n'));
    pump();
  });
}

/** Bytes this process has read through system calls so far (sockets included): Linux's /proc/self/io. */
function readChars(): number {
  return Number(/^rchar: (\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'))?.[1]);
}

describe('webhook body size limit (before Probot buffers the body)', () => {
  let h: Harness;
  let hook: string;
  beforeAll(async () => {
    h = await startHarness({ files: BUGGY_REPO, script: [turn(['finish', { summary: 'nothing', gave_up: true }])] });
    hook = `${h.app.url}/api/github/webhooks`;
  });
  afterAll(async () => {
    await h.close();
    nock.restore();
  });

  it('a streamed 30 MB body (no Content-Length) gets 413 once it passes 5 MiB, and reading stops', async () => {
    const before = readChars();
    const r = await stream(hook, 30 * MB, {});
    const read = readChars() - before;
    expect(r.status).toBe(413);
    // What this process read from its sockets (server and client share it; the client reads
    // only the short answer): the limit, not the body. How much the client got written is up to
    // the kernel's socket buffers (on a busy machine, all 30 MB), so it proves nothing.
    expect(read).toBeGreaterThan(LIMIT);
    expect(read).toBeLessThan(LIMIT + 2 * MB);
    expect(h.state.requests.filter((x) => !x.startsWith('GET '))).toEqual([]);
  });

  it('a declared Content-Length over the limit gets 413 before a byte of the body is read', async () => {
    const before = readChars();
    const r = await stream(hook, 30 * MB, { 'content-length': String(30 * MB) });
    const read = readChars() - before;
    expect(r.status).toBe(413);
    expect(read).toBeLessThan(1 * MB); // the headers, a parser's chunk of body at most, and the answer
  });

  it('the server stays healthy: /healthz 200, and signed deliveries (small, or 1 MB) are still handled', async () => {
    expect(await getStatus(`${h.app.url}/healthz`)).toBe(200);
    const star = withInstallation({ ...examplePayload('star', 'created'), repository: h.repository }, INSTALLATION);
    expect((await sendWebhook(hook, { event: 'star', deliveryId: 'after-413', payload: star, secret: SECRET })).status).toBe(200);
    const padded = { ...star, padding: 'x'.repeat(MB) };
    expect((await sendWebhook(hook, { event: 'star', deliveryId: 'padded', payload: padded, secret: SECRET })).status).toBe(200);
    // A body under the limit is still signature-checked before anything parses it.
    const forged = await sendWebhook(hook, { event: 'star', deliveryId: 'forged', payload: padded, secret: 'wrong', signature: signWebhook('wrong', '{}') });
    expect(forged.status).toBe(400);
  });
});
