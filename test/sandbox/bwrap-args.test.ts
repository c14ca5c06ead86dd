import { buildBwrapArgs, buildLaunchArgv, secretArgs, type BwrapPlan } from '../../src/sandbox/bwrap-args.js';

const plan: BwrapPlan = {
  system: [
    { path: '/usr', kind: 'dir' },
    { path: '/bin', kind: 'symlink', target: 'usr/bin' },
  ],
  etc: ['/etc/passwd', '/etc/hosts'],
  networkEtc: ['/etc/ssl'],
  extraReadOnly: ['/opt/tool'],
  egress: null,
  readOnlyBinds: [
    { source: '/srv/mirror.git', target: '/srv/mirror.git' },
    { source: '/srv/state/sandbox-git', target: '/srv/mirror.git/worktrees/x' },
  ],
  workspace: '/srv/mirror.git/greenfix/runs/x',
  cwd: '/srv/mirror.git/greenfix/runs/x/pkg',
  home: '/tmp/home',
  tmpBytes: 1000,
  env: { PATH: '/usr/bin', CI: 'true' },
  command: 'npm test',
  seccompFd: 3,
};

/** Index of the `flag a b` triple in args, -1 when absent. */
const triple = (args: string[], flag: string, a: string) =>
  args.findIndex((v, i) => v === flag && args[i + 1] === a);

describe('buildBwrapArgs', () => {
  const args = buildBwrapArgs(plan);

  it('unshares every namespace, never shares the network by default, and never binds /', () => {
    expect(args.slice(0, 5)).toEqual(['--unshare-all', '--unshare-user', '--disable-userns', '--die-with-parent', '--new-session']);
    expect(args).not.toContain('--share-net');
    expect(triple(args, '--ro-bind', '/')).toBe(-1);
    expect(triple(args, '--bind', '/')).toBe(-1);
    expect(triple(args, '--ro-bind', '/etc/resolv.conf')).toBe(-1);
  });

  it('binds system dirs read-only and recreates merged-usr symlinks', () => {
    expect(triple(args, '--ro-bind', '/usr')).toBeGreaterThan(-1);
    expect(args.slice(triple(args, '--symlink', 'usr/bin'), triple(args, '--symlink', 'usr/bin') + 3)).toEqual(['--symlink', 'usr/bin', '/bin']);
    expect(triple(args, '--ro-bind', '/etc/passwd')).toBeGreaterThan(-1);
  });

  it('mounts in an order that keeps later paths visible: tmpfs, extra paths, git dir, workspace', () => {
    const tmpfs = triple(args, '--tmpfs', '/tmp');
    expect(args[tmpfs - 2]).toBe('--size');
    expect(args[tmpfs - 1]).toBe('1000');
    expect(triple(args, '--ro-bind', '/opt/tool')).toBeGreaterThan(tmpfs);
    expect(triple(args, '--bind', plan.workspace)).toBeGreaterThan(triple(args, '--ro-bind', '/srv/mirror.git'));
    expect(triple(args, '--chdir', plan.cwd)).toBeGreaterThan(-1);
  });

  it('binds each host-decided read-only path at its target, in order, before the workspace', () => {
    const view = triple(args, '--ro-bind', '/srv/state/sandbox-git');
    expect(args[view + 2]).toBe('/srv/mirror.git/worktrees/x');
    expect(view).toBeGreaterThan(triple(args, '--ro-bind', '/srv/mirror.git'));
    expect(triple(args, '--bind', plan.workspace)).toBeGreaterThan(view);
  });

  it('binds a host-decided writable path (the setup step\'s package cache) read-write, only when asked', () => {
    expect(args).not.toContain('/srv/package-cache/7');
    const withCache = buildBwrapArgs({ ...plan, writableBinds: [{ source: '/srv/package-cache/7', target: '/var/cache/greenfix-packages' }] });
    const at = triple(withCache, '--bind', '/srv/package-cache/7');
    expect(at).toBeGreaterThan(-1);
    expect(withCache[at + 2]).toBe('/var/cache/greenfix-packages');
    expect(triple(withCache, '--ro-bind', '/srv/package-cache/7')).toBe(-1);
  });

  it('clears the environment before setting the allow-list, and runs the command through bash', () => {
    const clear = args.indexOf('--clearenv');
    expect(clear).toBeGreaterThan(-1);
    expect(triple(args, '--setenv', 'PATH')).toBeGreaterThan(clear);
    expect(args.slice(-6)).toEqual(['--', 'bash', '--norc', '--noprofile', '-c', 'npm test']);
  });

  it('gives a networked request the egress directory, CA certificates and the forwarder, never the host network', () => {
    const egress = { dir: '/tmp/greenfix-egress-x', mount: '/run/greenfix-egress', node: '/usr/bin/node', forwarder: 'forwarder.cjs', socket: 'proxy.sock', port: 3128, caBundle: '/etc/ssl/certs/ca-certificates.crt' };
    const net = buildBwrapArgs({ ...plan, egress });
    expect(net).not.toContain('--share-net');
    expect(net).toContain('--unshare-all');
    expect(triple(net, '--ro-bind', '/etc/ssl')).toBeGreaterThan(-1);
    expect(net.indexOf('/run/greenfix-egress')).toBe(triple(net, '--ro-bind', '/tmp/greenfix-egress-x') + 2);
    expect(net.slice(net.lastIndexOf('--'))).toEqual([
      '--', '/usr/bin/node', '/run/greenfix-egress/forwarder.cjs', '/run/greenfix-egress/proxy.sock', '3128', '/etc/ssl/certs/ca-certificates.crt',
      'bash', '--norc', '--noprofile', '-c', 'npm test',
    ]);
    expect(triple(args, '--ro-bind', '/etc/ssl')).toBe(-1);
  });
});

describe('buildLaunchArgv', () => {
  const tools = { bwrap: '/usr/bin/bwrap', setpriv: '/usr/bin/setpriv', bash: '/bin/bash' };
  const limits = { processes: 64, fileSizeBytes: 4096 };
  const script = (argv: string[]) => argv[2]!;
  const none = { cgroupJoin: [], passedFds: 0 };

  it('starts with bash closing every descriptor from 3 + the passed ones on, with no cgroup to join', () => {
    const argv = buildLaunchArgv(tools, null, limits, ['X'], { cgroupJoin: [], passedFds: 2 });
    expect(argv.slice(0, 2)).toEqual(['/bin/bash', '-c']);
    expect(argv[2]).toContain('/proc/self/fd/*');
    expect(argv.slice(3, 6)).toEqual(['greenfix-launch', '5', '0']);
  });

  it('drops to the sandbox uid before bwrap and limits processes when root, the shell setting the rlimits (KiB) itself', () => {
    const argv = buildLaunchArgv(tools, { uid: 65534, gid: 65534 }, limits, ['X'], none);
    expect(script(argv)).toContain('ulimit -f 4 -u 64 || exit 125; exec "$@"');
    expect(argv.slice(6)).toEqual([
      '/usr/bin/setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', '--no-new-privs', '--',
      '/usr/bin/bwrap', 'X',
    ]);
  });

  it('runs bwrap as the current user otherwise, without a per-uid process limit', () => {
    const argv = buildLaunchArgv(tools, null, limits, ['X'], none);
    expect(script(argv)).toContain('ulimit -f 4 || exit 125; exec "$@"');
    expect(argv.slice(6)).toEqual(['/usr/bin/bwrap', 'X']);
  });

  it('refuses a limit that is not a whole non-negative number (it becomes part of the script)', () => {
    expect(() => buildLaunchArgv(tools, { uid: 7, gid: 7 }, { processes: 1.5, fileSizeBytes: 4096 }, ['X'], none)).toThrow(RangeError);
    expect(() => buildLaunchArgv(tools, null, { processes: 64, fileSizeBytes: Number.NaN }, ['X'], none)).toThrow(RangeError);
  });

  it('joins the cgroup first (the shell moves itself, writing 0, then execs), and then needs no per-uid process limit', () => {
    const argv = buildLaunchArgv(tools, { uid: 7, gid: 7 }, limits, ['X'], { cgroupJoin: ['/cg/memory/a/tasks', '/cg/pids/a/tasks'], passedFds: 1 });
    expect(argv.slice(0, 2)).toEqual(['/bin/bash', '-c']);
    expect(argv.slice(3, 8)).toEqual(['greenfix-launch', '4', '2', '/cg/memory/a/tasks', '/cg/pids/a/tasks']);
    expect(script(argv)).toContain('ulimit -f 4 || exit 125');
    expect(argv.slice(8)).toEqual([
      '/usr/bin/setpriv', '--reuid=7', '--regid=7', '--clear-groups', '--no-new-privs', '--',
      '/usr/bin/bwrap', 'X',
    ]);
  });
});

describe('buildBwrapArgs seccomp', () => {
  it('passes the seccomp descriptor to bwrap before any mount, and none when off', () => {
    const args = buildBwrapArgs(plan);
    expect(triple(args, '--seccomp', '3')).toBeGreaterThan(-1);
    expect(triple(args, '--seccomp', '3')).toBeLessThan(args.indexOf('--ro-bind'));
    expect(buildBwrapArgs({ ...plan, seccompFd: null })).not.toContain('--seccomp');
  });
});

describe('buildBwrapArgs data files', () => {
  it("mounts /etc/passwd from a descriptor instead of the host's, and leaves other /etc entries bound", () => {
    const args = buildBwrapArgs({ ...plan, dataFiles: [{ path: '/etc/passwd', fd: 4 }] });
    expect(triple(args, '--ro-bind', '/etc/passwd')).toBe(-1);
    expect(triple(args, '--ro-bind-data', '4')).toBeGreaterThan(-1);
    expect(args[triple(args, '--ro-bind-data', '4') + 2]).toBe('/etc/passwd');
    expect(triple(args, '--ro-bind', '/etc/hosts')).toBeGreaterThan(-1);
  });
});

describe('buildBwrapArgs setup secrets', () => {
  it('reads them from a descriptor after the environment is cleared and set, so no value is on the command line', () => {
    const args = buildBwrapArgs({ ...plan, argsFd: 5 });
    const at = triple(args, '--args', '5');
    expect(at).toBeGreaterThan(args.indexOf('--clearenv'));
    expect(at).toBeGreaterThan(args.lastIndexOf('--setenv'));
    expect(at).toBeLessThan(args.indexOf('--'));
    expect(buildBwrapArgs(plan)).not.toContain('--args');
    expect(secretArgs({ NPM_TOKEN: 'tok en', B: 'x' }).toString()).toBe('--setenv\0NPM_TOKEN\0tok en\0--setenv\0B\0x\0');
  });
});
