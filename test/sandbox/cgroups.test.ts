import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { v1Mounts } from '../../src/sandbox/cgroup-v1.js';
import { commandCgroupName, ownCgroupPaths, sweepStaleCgroups } from '../../src/sandbox/cgroups.js';
import { detectCgroups } from '../../src/sandbox/detect-cgroups.js';
import { TempDirs } from '../support/temp-dir.js';

const temp = new TempDirs();
afterEach(() => temp.cleanup());

describe('cgroup discovery', () => {
  it("reads the process's own cgroup per controller, and the v2 line", () => {
    const paths = ownCgroupPaths('9:name=systemd:/\n8:pids:/\n4:memory:/process_api/abc\n3:cpu,cpuacct:/x\n0::/user.slice/app.scope\n');
    expect(paths.get('memory')).toBe('/process_api/abc');
    expect(paths.get('pids')).toBe('/');
    expect(paths.get('cpuacct')).toBe('/x');
    expect(paths.get('')).toBe('/user.slice/app.scope');
  });

  it('finds the v1 memory and pids mount points in mountinfo', () => {
    const mountinfo = [
      '31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755',
      '35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory',
      '38 31 0:35 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids',
      '40 31 0:37 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw',
    ].join('\n');
    expect(v1Mounts(mountinfo)).toEqual({ memory: '/sys/fs/cgroup/memory', pids: '/sys/fs/cgroup/pids' });
    expect(v1Mounts('40 31 0:37 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw')).toEqual({});
  });

  const unified = '/sys/fs/cgroup/unified';
  (existsSync(join(unified, 'cgroup.controllers')) ? it : it.skip)('says why when v2 lacks the memory and pids controllers (this machine: only hugetlb on the unified mount)', async () => {
    const r = await detectCgroups({ root: unified, procSelfCgroup: '0::/\n' });
    expect(r.cgroups).toBeNull();
    expect(r.why).toMatch(/controllers .*memory.* are not delegated/);
  });

  it('names no cgroup hierarchy at all: nothing to cap with', async () => {
    const r = await detectCgroups({ root: temp.make('gf-nocg-'), procSelfCgroup: '', mountinfo: '' });
    expect(r).toEqual({ cgroups: null, why: 'no cgroup v2 and no v1 memory and pids controllers mounted' });
  });

  it("sweeps a crashed creator's leftovers and leaves a live one's", async () => {
    const base = temp.make('gf-sweep-');
    mkdirSync(join(base, commandCgroupName(111, 1)));
    mkdirSync(join(base, commandCgroupName(222, 7)));
    mkdirSync(join(base, 'greenfix-host'));
    await sweepStaleCgroups([base], (pid) => pid === 222);
    expect(existsSync(join(base, '111-1'))).toBe(false);
    expect(existsSync(join(base, '222-7'))).toBe(true);
    expect(existsSync(join(base, 'greenfix-host'))).toBe(true);
  });
});
