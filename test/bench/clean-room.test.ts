import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { benchCleanRoom } from '../../bench/clean-room.js';
import { cleanRoomRows } from '../../bench/report.js';
import { createSandbox } from '../../src/sandbox/create-sandbox.js';

/** The clean-room benchmark at a tiny size, offline: a setup that writes its own state, no registry. */
describe('benchCleanRoom', () => {
  it('measures the gate against the setup on a small repository, and cleans up after itself', async () => {
    const leftovers = () => readdirSync(tmpdir()).filter((n) => n.startsWith('greenfix-bench-room-'));
    const before = leftovers();
    const sandbox = await createSandbox({ env: { PATH: process.env.PATH }, log: () => undefined });
    const r = await benchCleanRoom({
      sandbox,
      trackedFiles: 20,
      localSetup: 'mkdir -p node_modules/dep && for i in 1 2 3 4 5; do echo $i > node_modules/dep/f$i.js; done',
      verify: 'test -f node_modules/dep/f5.js && test -f src/locale/l19.js',
      runs: 3,
    });
    expect(r).toMatchObject({ trackedFiles: 20, stateFiles: 5 });
    for (const v of [r.setupMs, r.keepMs, r.materialiseMs, r.restoreMs, r.gateMs, r.stageMs, r.unstaged.materialiseMs, r.unstaged.restoreMs, r.unstaged.gateMs, r.testMs]) expect(Number.isFinite(v) && v > 0).toBe(true);
    expect(r.ratio).toBeCloseTo(r.gateMs / r.setupMs, 5);
    expect(cleanRoomRows(r)[0]![0]).toBe('clean-room gate, 20 tracked + 5 setup files');
    expect(cleanRoomRows(r).map((row) => row[0]!.trim())).toContain('gate with nothing staged (made at the verdict)');
    expect(leftovers()).toEqual(before);
  });
});
