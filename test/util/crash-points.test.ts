import { createCrashPoints, parseCrashAt } from '../../src/util/crash-points.js';

describe('crash points', () => {
  it('parses <point> and <point>:<n>, and ignores anything else', () => {
    expect(parseCrashAt('before_tool')).toEqual({ name: 'before_tool', nth: 1 });
    expect(parseCrashAt('after_model:3')).toEqual({ name: 'after_model', nth: 3 });
    for (const bad of [undefined, '', 'x:0', 'after_model:', 'AFTER', 'a:b']) expect(parseCrashAt(bad)).toBeNull();
  });

  it('kills the n-th time its point is reached, not before, not at other points', () => {
    const kills: string[] = [];
    const points = createCrashPoints({ GREENFIX_CRASH_AT: 'before_tool:3' }, () => kills.push('killed'));
    points.reach('before_tool');
    points.reach('after_tool');
    points.reach('before_tool');
    expect(kills).toEqual([]);
    points.reach('before_tool');
    expect(kills).toEqual(['killed']);
    points.reach('before_tool');
    expect(kills).toEqual(['killed']);
  });

  it('keeps counts per instance: two runs in one process do not share them', () => {
    let kills = 0;
    const env = { GREENFIX_CRASH_AT: 'after_model:2' };
    const first = createCrashPoints(env, () => kills++);
    const second = createCrashPoints(env, () => kills++);
    first.reach('after_model');
    second.reach('after_model');
    expect(kills).toBe(0);
  });

  it('does nothing without the variable', () => {
    let kills = 0;
    const points = createCrashPoints({}, () => kills++);
    points.reach('after_model');
    expect(kills).toBe(0);
  });
});
