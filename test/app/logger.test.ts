import { Writable } from 'node:stream';
import { createLogger, REDACTED } from '../../src/app/logger.js';
import { deliveryLogger, jobLogger, withLogContext } from '../../src/app/logger-context.js';

/** A destination that keeps every line written to it. */
function capture(): { stream: Writable; lines: () => string[]; written: Promise<void> } {
  const chunks: string[] = [];
  let wrote = () => {};
  const written = new Promise<void>((resolve) => (wrote = resolve));
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString());
      wrote();
      done();
    },
  });
  return { stream, written, lines: () => chunks.join('').split('\n').filter((l) => l !== '') };
}

const TOKEN = 'ghs_16C7e42F292c6912E7710c838347Ae178B4a';

describe('createLogger', () => {
  it('redacts tokens, keys and authorization headers at the top and one level down', async () => {
    const out = capture();
    const log = await createLogger({ destination: out.stream });
    log.info(
      {
        token: TOKEN,
        auth: { token: TOKEN, type: 'installation' },
        request: { headers: { authorization: `token ${TOKEN}`, accept: 'application/json' } },
        options: { privateKey: '-----BEGIN RSA PRIVATE KEY-----\nMII', appId: 1 },
        env: { OPENAI_API_KEY: 'sk-live-123', GREENFIX_MODEL: 'gpt' },
        OPENAI_API_KEY: 'sk-live-456',
      },
      'calling GitHub',
    );
    const lines = out.lines();
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain(TOKEN);
    expect(lines[0]).not.toMatch(/sk-live|BEGIN RSA/);
    const entry = JSON.parse(lines[0]!);
    expect(entry.token).toBe(REDACTED);
    expect(entry.auth).toEqual({ token: REDACTED, type: 'installation' });
    expect(entry.request.headers).toEqual({ authorization: REDACTED, accept: 'application/json' });
    expect(entry.options).toEqual({ privateKey: REDACTED, appId: 1 });
    expect(entry.env).toEqual({ OPENAI_API_KEY: REDACTED, GREENFIX_MODEL: 'gpt' });
    expect(entry.msg).toBe('calling GitHub');
  });

  it('redacts the authorization header of a logged octokit error', async () => {
    const out = capture();
    const log = await createLogger({ destination: out.stream });
    const err = Object.assign(new Error('Bad credentials'), {
      status: 401,
      request: { method: 'GET', url: 'https://api.github.com/x', headers: { authorization: `token ${TOKEN}` } },
    });
    log.error({ err }, 'GitHub said no');
    const entry = JSON.parse(out.lines()[0]!);
    expect(entry.err.request.headers.authorization).toBe(REDACTED);
    expect(entry.err.status).toBe(401);
    expect(out.lines()[0]).not.toContain(TOKEN);
  });

  it('honours the level', async () => {
    const out = capture();
    const log = await createLogger({ level: 'warn', destination: out.stream });
    log.info('quiet');
    log.warn('loud');
    expect(out.lines().map((l) => JSON.parse(l).msg)).toEqual(['loud']);
  });

  it('pretty format prints readable lines, still redacted', async () => {
    const out = capture();
    const log = await createLogger({ format: 'pretty', destination: out.stream });
    log.info({ token: TOKEN }, 'hello there');
    await out.written; // the pretty transform writes asynchronously
    const text = out.lines().join('\n');
    expect(text).toContain('hello there');
    expect(text).not.toContain(TOKEN);
    expect(() => JSON.parse(out.lines()[0] ?? '')).toThrow();
  });
});

describe('log context', () => {
  it('child loggers carry delivery, job and repository ids, leaving absent ones out', async () => {
    const out = capture();
    const log = await createLogger({ destination: out.stream });
    deliveryLogger(log, { deliveryId: 'd-1', event: 'installation' }).info('received');
    deliveryLogger(log, { deliveryId: 'd-2', repo: 'octo/repo', event: 'issues' }).info('enqueued');
    jobLogger(log, { id: 'j-9', deliveryId: 'd-2', request: { repo: repoRef() } }).info('running');
    withLogContext(log, { jobId: 'j-1', repo: '' }).info('bare');
    const entries = out.lines().map((l) => JSON.parse(l));
    expect(entries[0]).toMatchObject({ deliveryId: 'd-1', event: 'installation', msg: 'received' });
    expect(entries[0]).not.toHaveProperty('repo');
    expect(entries[1]).toMatchObject({ deliveryId: 'd-2', repo: 'octo/repo', event: 'issues' });
    expect(entries[2]).toMatchObject({ jobId: 'j-9', deliveryId: 'd-2', repo: 'octo/repo', msg: 'running' });
    expect(entries[3]).toMatchObject({ jobId: 'j-1' });
    expect(entries[3]).not.toHaveProperty('repo');
  });
});

function repoRef() {
  return { id: 1, owner: 'octo', name: 'repo', cloneUrl: 'https://github.com/octo/repo.git', defaultBranch: 'main' };
}
