import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSandbox } from '../../src/sandbox/create-sandbox.js';
import { SandboxUnavailableError } from '../../src/sandbox/errors.js';
import { PROBE_MAX_AGE_MS, probeKey, readProbeVerdict, writeProbeVerdict } from '../../src/sandbox/probe-cache.js';
import { findExecutable } from '../../src/sandbox/find-executable.js';
import { sandboxWorkspace } from './fixtures.js';
import { TempDirs } from '../support/temp-dir.js';

const temp = new TempDirs();
afterEach(() => temp.cleanup());

const realBwrap = findExecutable('bwrap', process.env.PATH) ?? '/usr/bin/bwrap';

/** A `bwrap` first on PATH that counts the probe's `bwrap --version` and passes everything on. */
function countingBwrap(extra = ''): { env: { PATH: string }; probes: () => number; rewrite: (extra: string) => void } {
  const dir = temp.make('greenfix-probe-bin-');
  chmodSync(dir, 0o755);
  const log = join(dir, 'probes.log');
  const rewrite = (more: string) => {
    writeFileSync(join(dir, 'bwrap'), `#!/bin/sh\n${more}\n[ "$1" = --version ] && echo probe >> ${log}\nexec ${realBwrap} "$@"\n`);
    chmodSync(join(dir, 'bwrap'), 0o755);
  };
  rewrite(extra);
  return { env: { PATH: `${dir}:${process.env.PATH}` }, probes: () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean).length : 0), rewrite };
}

async function runsEcho(sandbox: Awaited<ReturnType<typeof createSandbox>>): Promise<string> {
  const workspace = await sandboxWorkspace(temp);
  const job = await sandbox.forJob({ workspace });
  try {
    return (await job.run({ command: 'echo fine', workspace, timeoutMs: 10_000 })).stdout;
  } finally {
    await job.release();
  }
}

describe('the sandbox probe kept across launches (probeCache)', () => {
  it('probes at the first launch only; the next launch with the same key skips the probe and still isolates', async () => {
    const bwrap = countingBwrap();
    const probeCache = join(temp.make('greenfix-probe-cache-'), 'sandbox-probe.json');
    const first = await createSandbox({ env: bwrap.env, log: () => undefined, probeCache });
    expect(bwrap.probes()).toBe(1);
    expect(existsSync(probeCache)).toBe(true);
    const second = await createSandbox({ env: bwrap.env, log: () => undefined, probeCache });
    expect(bwrap.probes()).toBe(1);
    expect(await runsEcho(second)).toBe('fine\n');
    expect(await runsEcho(first)).toBe('fine\n');
  });

  it('probes again when bubblewrap changed (another binary, an upgrade) or the file is damaged', async () => {
    const bwrap = countingBwrap();
    const probeCache = join(temp.make('greenfix-probe-cache-'), 'sandbox-probe.json');
    await createSandbox({ env: bwrap.env, log: () => undefined, probeCache });
    bwrap.rewrite('# upgraded');
    await createSandbox({ env: bwrap.env, log: () => undefined, probeCache });
    expect(bwrap.probes()).toBe(2);
    writeFileSync(probeCache, '{"version": 1, "entries": [');
    await createSandbox({ env: bwrap.env, log: () => undefined, probeCache });
    expect(bwrap.probes()).toBe(3);
  });

  it('never keeps a failed probe: a broken bubblewrap is refused at every launch', async () => {
    const bwrap = countingBwrap('[ "$1" = --version ] || { echo "no user namespaces" >&2; exit 1; }');
    const probeCache = join(temp.make('greenfix-probe-cache-'), 'sandbox-probe.json');
    for (let i = 0; i < 2; i++) {
      await expect(createSandbox({ env: bwrap.env, log: () => undefined, probeCache })).rejects.toBeInstanceOf(SandboxUnavailableError);
    }
    expect(bwrap.probes()).toBeGreaterThanOrEqual(2);
    expect(existsSync(probeCache)).toBe(false);
  });

  it('forgets a verdict after a day, and keys on the settings as well as the tools', () => {
    const file = join(temp.make('greenfix-probe-cache-'), 'sandbox-probe.json');
    const key = probeKey([realBwrap], { limits: { memoryMb: 4096 } });
    expect(probeKey([realBwrap], { limits: { memoryMb: 2048 } })).not.toBe(key);
    writeProbeVerdict(file, key, { cgroupFallback: null }, 1_000);
    expect(readProbeVerdict(file, key, 1_000 + PROBE_MAX_AGE_MS - 1)).toEqual({ cgroupFallback: null });
    expect(readProbeVerdict(file, key, 1_000 + PROBE_MAX_AGE_MS)).toBeNull();
    expect(readProbeVerdict(file, 'another key', 1_000)).toBeNull();
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});
