import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { benchFixFirstRequest, fixFirstRequestRows } from '../../bench/fix-first-request.js';

const CLI = resolve('dist/src/cli/main.js');

describe('bench: greenfix fix launch → first model request', () => {
  it('times the built CLI to a real request on loopback, the first run and a cached-baseline one, and leaves nothing behind', async () => {
    const before = new Set(readdirSync(tmpdir()).filter((n) => n.startsWith('greenfix-first-request-')));
    const r = await benchFixFirstRequest({ runs: 1, env: process.env, cli: CLI, before: CLI });
    expect(r.warmRuns).toHaveLength(1);
    expect(r.beforeRuns).toHaveLength(1);
    // Each figure is a launch that reached the model: longer than a bare node start, with CPU spent.
    expect(r.coldMs).toBeGreaterThan(r.nodeMs);
    expect(r.warmMs).toBeGreaterThan(r.nodeMs);
    expect(r.warmCpuMs).toBeGreaterThan(0);
    const rows = fixFirstRequestRows(r);
    expect(rows[0]![0]).toMatch(/launch → first model request, cached baseline/);
    expect(rows[0]![4]).toMatch(/^≤ 0\.4 s \((met|NOT met)\)$/);
    expect(rows.some((row) => row[0].includes('against the other build'))).toBe(true);
    const after = readdirSync(tmpdir()).filter((n) => n.startsWith('greenfix-first-request-') && !before.has(n));
    expect(after).toEqual([]);
  });
});
