import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { benchImageStart } from '../../bench/image-start.js';
import { imageStartRows } from '../../bench/report.js';
import { createSandbox } from '../../src/sandbox/create-sandbox.js';

// Only the bench's own directory: registries (gf-registry-*, removed by their stop()) of other files
// come and go in the same /tmp while this runs beside them.
const leftovers = () => readdirSync(tmpdir()).filter((n) => n.startsWith('gf-bench-image-'));

describe('the environment image benchmark, at a tiny size', () => {
  it('measures a first pull and job starts in the image against the host, and leaves nothing behind', async () => {
    const before = leftovers();
    const sandbox = await createSandbox({ env: { PATH: process.env.PATH }, log: () => undefined });
    const r = await benchImageStart({ sandbox, megabytes: 1, starts: 2 });
    expect(r.starts).toBe(2);
    expect(r.imageBytes).toBeGreaterThan(1024 * 1024);
    for (const value of [r.firstPullMs, r.imageStartMs, r.hostStartMs]) expect(Number.isFinite(value) && value > 0).toBe(true);
    const rows = imageStartRows(r);
    expect(rows[0]![0]).toBe('job start, environment image cached (2 starts)');
    expect(rows[0]![4]).toMatch(/^≤ \+200 ms/);
    expect(leftovers()).toEqual(before);
  });
});
