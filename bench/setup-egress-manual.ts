/**
 * MANUAL, needs the internet (never run by tests or `npm run bench`): a real `npm install` of a
 * small real project from registry.npmjs.org, through the setup egress proxy and, for comparison,
 * with the host's network shared (`--share-net`, greenfix's old setup). Same project, same run,
 * alternating, fresh npm cache each time (HOME is the sandbox's tmpfs).
 *   npm run bench:build && node dist-bench/bench/setup-egress-manual.js [rounds]
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildBwrapArgs, buildLaunchArgv } from '../src/sandbox/bwrap-args.js';
import { createSandbox } from '../src/sandbox/create-sandbox.js';
import { DEFAULT_SANDBOX_PATH, sandboxEnvironment } from '../src/sandbox/environment.js';
import { ETC_ALLOW, ETC_NETWORK, probeEtc, probeSystemDirs } from '../src/sandbox/host-layout.js';
import { findExecutable } from '../src/sandbox/find-executable.js';
import { sandboxFileOwner } from '../src/sandbox/ownership.js';
import { prepareWorkspaceOwnership } from '../src/sandbox/prepare-workspace-ownership.js';
import { runProcess } from '../src/util/run-process.js';

const PROJECT = { name: 'egress-bench', version: '1.0.0', private: true, dependencies: { express: '4.21.2', commander: '12.1.0', chalk: '4.1.2' } };
const COMMAND = 'npm install --no-audit --no-fund --no-update-notifier --loglevel=error && node -e "require(\'express\'); console.log(\'ok\', require(\'fs\').readdirSync(\'node_modules\').length, \'packages\')"';

async function workspace(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'greenfix-egress-bench-'));
  chmodSync(dir, 0o755);
  writeFileSync(join(dir, 'package.json'), JSON.stringify(PROJECT, null, 2));
  await prepareWorkspaceOwnership(dir, sandboxFileOwner());
  return dir;
}

/** The old way: the same bwrap plan, with the host's network namespace and resolv.conf. */
async function sharedNet(dir: string): Promise<{ ms: number; exitCode: number | null; out: string }> {
  const runAs = sandboxFileOwner();
  const tools = { bwrap: findExecutable('bwrap', process.env.PATH)!, bash: findExecutable('bash', process.env.PATH)!, setpriv: findExecutable('setpriv', process.env.PATH)! };
  const args = buildBwrapArgs({
    system: probeSystemDirs(), etc: probeEtc(ETC_ALLOW), networkEtc: [],
    extraReadOnly: [], egress: null, readOnlyBinds: [], workspace: dir, cwd: dir, home: '/tmp/home', tmpBytes: 1024 ** 3,
    env: sandboxEnvironment({ NODE_EXTRA_CA_CERTS: '/etc/ssl/certs/ca-certificates.crt' }, { home: '/tmp/home', path: DEFAULT_SANDBOX_PATH }), command: COMMAND, seccompFd: null,
  });
  // The plan has no network: add the old --share-net and the CA/resolv.conf binds by hand.
  const etcBinds = [...probeEtc(ETC_NETWORK), ...probeEtc(['resolv.conf'])].flatMap((p) => ['--ro-bind', p, p]);
  // After --unshare-all (bwrap applies options in order), before the command's `--`.
  const end = args.indexOf('--clearenv');
  const withNet = [...args.slice(0, 5), '--share-net', ...args.slice(5, end), ...etcBinds, ...args.slice(end)];
  const start = Date.now();
  const r = await runProcess({ argv: buildLaunchArgv(tools, runAs, { processes: 4096, fileSizeBytes: 1024 ** 3 }, withNet, { cgroupJoin: [], passedFds: 0 }), cwd: '/', env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' }, timeoutMs: 600_000 });
  return { ms: Date.now() - start, exitCode: r.exitCode, out: `${r.stdout}${r.stderr}`.trim().split('\n').slice(-3).join(' | ') };
}

async function main(): Promise<void> {
  const rounds = Number(process.argv[2] ?? 3);
  const sandbox = await createSandbox({ env: { PATH: process.env.PATH }, log: () => undefined });
  const rows: string[] = [];
  for (let i = 0; i < rounds; i++) {
    const a = await workspace();
    const start = Date.now();
    const proxied = await sandbox.run({ command: COMMAND, workspace: a, network: true, timeoutMs: 600_000 });
    const proxiedMs = Date.now() - start;
    rmSync(a, { recursive: true, force: true });
    const b = await workspace();
    const shared = await sharedNet(b);
    rmSync(b, { recursive: true, force: true });
    rows.push(
      `round ${i + 1}: proxy ${(proxiedMs / 1000).toFixed(2)} s (exit ${proxied.exitCode}, refused ${proxied.egress?.refusedCount ?? 0}: ${proxied.stdout.trim()}) · ` +
        `share-net ${(shared.ms / 1000).toFixed(2)} s (exit ${shared.exitCode}: ${shared.out})`,
    );
    console.log(rows.at(-1));
  }
}

void main();
