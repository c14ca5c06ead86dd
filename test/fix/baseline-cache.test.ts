import { baselineKey, readBaseline, writeBaseline } from '../../src/fix/baseline-cache.js';
import { dependencyState } from '../../src/fix/setup-phase.js';
import { summarizeBaseline } from '../../src/verify/test-evidence.js';
import { TempDirs } from '../support/temp-dir.js';

const temp = new TempDirs();
afterEach(() => temp.cleanup());

const TREE = 'a'.repeat(40);
const setupRun = { exitCode: 0, timedOut: false, durationMs: 1000, outputTail: '' };
const kept = (digit: string) => ({ digest: digit.repeat(64), files: 1, bytes: 1, refused: [] });
const passing = (key: string) => ({ key, summary: summarizeBaseline('npm test', { exitCode: 0, timedOut: false, durationMs: 5 }, null), report: null });

describe('the baseline cache key includes the dependency state it ran against', () => {
  it('a baseline that "passed" against a poisoned cache entry is not read once the entry is gone and setup installs for real', () => {
    const dir = temp.make('gf-baselines-');
    const poisoned = dependencyState({ setup: { ...setupRun, cache: { result: 'hit', bytes: 1 }, dependencyState: kept('1') }, baseCommit: 'c', createdAt: 1 });
    writeBaseline(dir, passing(baselineKey(TREE, 'npm test', 'npm ci', poisoned)));
    expect(readBaseline(dir, baselineKey(TREE, 'npm test', 'npm ci', poisoned))).not.toBeNull();
    // The dependency cache was deleted: the next job's setup installed, and left other files.
    const installed = dependencyState({ setup: { ...setupRun, cache: { result: 'stored', bytes: 1 }, dependencyState: kept('2') }, baseCommit: 'c', createdAt: 2 });
    expect(readBaseline(dir, baselineKey(TREE, 'npm test', 'npm ci', installed))).toBeNull();
  });

  it('the same dependency state shares the baseline; a run state from before the field never does', () => {
    const state = { setup: { ...setupRun, dependencyState: kept('3') }, baseCommit: 'c', createdAt: 1 };
    expect(baselineKey(TREE, 'v', 's', dependencyState(state))).toBe(baselineKey(TREE, 'v', 's', dependencyState({ ...state, createdAt: 9 })));
    const old = { setup: setupRun, baseCommit: 'c', createdAt: 1 };
    expect(dependencyState(old)).not.toBe(dependencyState({ ...old, createdAt: 2 }));
    expect(dependencyState({ baseCommit: 'c', createdAt: 1 })).toBe('none');
  });

  it('a baseline measured in one environment image never stands for another, nor for the host\'s userland', () => {
    const image = (d: string) => `sha256:${d.repeat(64)}`;
    const host = baselineKey(TREE, 'pytest', null, 'none');
    expect(baselineKey(TREE, 'pytest', null, 'none', null)).toBe(host);
    expect(baselineKey(TREE, 'pytest', null, 'none', image('1'))).not.toBe(host);
    expect(baselineKey(TREE, 'pytest', null, 'none', image('1'))).not.toBe(baselineKey(TREE, 'pytest', null, 'none', image('2')));
    expect(baselineKey(TREE, 'pytest', null, 'none', image('1'))).toBe(baselineKey(TREE, 'pytest', null, 'none', image('1')));
  });
});
