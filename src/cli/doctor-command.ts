import type { JobEnvironment } from '../image/job-environment.js';
import { localImage } from './local-image.js';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SandboxConfigError, SandboxUnavailableError } from '../sandbox/errors.js';
import type { JobSandbox } from '../sandbox/types.js';
import { checkSystemPackages } from '../sandbox/system-packages.js';
import { baselineCacheDir } from '../fix/baseline-cache.js';
import { FIX_TOOL_LIMITS, SETUP_TIMEOUT_MS } from '../fix/defaults.js';
import { runDoctor, type CommandSource, type DoctorFindings } from '../fix/doctor-check.js';
import { doctorLines, doctorVerdict } from '../fix/doctor-verdict.js';
import { detectCommands } from '../workspace/detect-commands.js';
import { git } from '../workspace/git.js';
import { addWorktree, removeWorktree } from '../workspace/worktree.js';
import { createLocalSandbox, localToolchains, toolchainEnvironment } from './local-sandbox.js';
import { baseName, headRef } from './base-name.js';
import { ExitCode, UsageError } from './exit-codes.js';
import type { CliIo } from './io.js';
import { parseFlags } from './parse-flags.js';

export const DOCTOR_USAGE = `Usage: greenfix doctor --repo DIR [--verify CMD] [--setup CMD] [--json]

Checks whether greenfix can work on a repository: runs setup and the test command on HEAD in a
fresh worktree, in the sandbox, as a fix would before the model starts, and says what it found.

Exit codes: 0 greenfix can work here, 1 it cannot yet (the last line says why), 2 usage error.`;

function parse(argv: string[], cwd: string): { repo: string; verify?: string; setup?: string; json: boolean } | 'help' {
  const values = parseFlags(argv, { repo: { type: 'string', default: '.' }, verify: { type: 'string' }, setup: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }, DOCTOR_USAGE);
  if (values.help) return 'help';
  const trimmed = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
  const verify = trimmed(values.verify);
  const setup = trimmed(values.setup);
  return { repo: resolve(cwd, values.repo as string), ...(verify ? { verify } : {}), ...(setup ? { setup } : {}), json: values.json === true };
}

/** `greenfix doctor`: the readiness check of a local repository. */
export async function doctorCommand(argv: string[], io: CliIo): Promise<number> {
  try {
    const options = parse(argv, io.cwd);
    if (options === 'help') {
      io.stdout(DOCTOR_USAGE);
      return ExitCode.verified;
    }
    return await doctor(options, io);
  } catch (error) {
    if (error instanceof UsageError || error instanceof SandboxConfigError || error instanceof SandboxUnavailableError) {
      io.stderr(`greenfix: ${error.message}`);
      return ExitCode.usage;
    }
    io.stderr(`greenfix: doctor failed: ${error instanceof Error ? error.message : String(error)}`);
    return ExitCode.failure;
  }
}

async function doctor(options: { repo: string; verify?: string; setup?: string; json: boolean }, io: CliIo): Promise<number> {
  if (!existsSync(options.repo)) throw new UsageError(`--repo ${options.repo} does not exist`);
  let repo: string;
  try {
    repo = (await git(['rev-parse', '--show-toplevel'], { cwd: options.repo })).trim();
  } catch {
    throw new UsageError(`--repo ${options.repo} is not a git repository (or has no work tree)`);
  }
  const hostProblems = checkSystemPackages({ env: io.env, isRoot: process.getuid?.() === 0, sandboxOff: io.env.GREENFIX_SANDBOX === 'off' }).map((m) => m.message);
  const workdir = io.env.GREENFIX_WORKDIR?.trim() || join(tmpdir(), `greenfix-${process.getuid?.() ?? 'user'}`);
  const dir = join(workdir, 'doctor', createHash('sha256').update(repo).digest('hex').slice(0, 8));
  const worktree = join(dir, 'worktree');
  if (existsSync(dir)) {
    await removeWorktree(repo, worktree);
    rmSync(dir, { recursive: true, force: true });
  }
  for (const d of [workdir, join(workdir, 'doctor'), dir]) {
    mkdirSync(d, { recursive: true });
    chmodSync(d, 0o711);
  }
  const workspace = await addWorktree({ repo, path: worktree, ref: 'HEAD', stateDir: join(dir, 'index') });
  let jobSandbox: JobSandbox | null = null;
  let image: JobEnvironment | null = null;
  try {
    const detected = detectCommands(workspace.root);
    const commands = detectCommands(workspace.root, { ...(options.verify ? { verify: options.verify } : {}), ...(options.setup ? { setup: options.setup } : {}) });
    const source = (given: string | undefined, found: string | null): CommandSource => (given ? 'configured' : found ? 'detected' : 'none');
    const sources = { verify: source(options.verify, detected.verify), setup: source(options.setup, detected.setup) };
    const toolchains = await localToolchains(io, { workdir, repo }, commands);
    const shared = hostProblems.length > 0 ? null : await createLocalSandbox(io, { workdir, repo }, toolchains);
    // A uid of the check's own, as a job gets (the worktree is handed to it); released below.
    image = shared ? await localImage(io, workdir, workspace.root) : null;
    jobSandbox = shared ? await shared.forJob({ workspace: worktree, image }) : null;
    const sandbox = jobSandbox;
    const found: DoctorFindings = sandbox
      ? await runDoctor({ workspace, sandbox, owner: sandbox.owner, setupTimeoutMs: SETUP_TIMEOUT_MS, testTimeoutMs: FIX_TOOL_LIMITS.testTimeoutSec * 1000, cacheDir: baselineCacheDir(workdir, toolchainEnvironment(toolchains)) }, commands, sources, [])
      : { commands, sources, missingInSandbox: [], setup: null, baseline: null, baselineTail: null, hostProblems };
    const { visible, notFound, refused } = toolchains;
    const findings: DoctorFindings = { ...found, toolchains: { visible, notFound, refused } };
    const where = baseName(await headRef(repo), workspace.baseCommit);
    for (const line of doctorLines(findings, where)) io.stderr(`greenfix: ${line}`);
    if (findings.setup && findings.setup.exitCode !== 0) io.stderr(`greenfix: setup output ended with:\n${findings.setup.outputTail}`);
    if (findings.baselineTail) io.stderr(`greenfix: the test command's output on the base ended with:\n${findings.baselineTail}`);
    const verdict = doctorVerdict(findings);
    io.stderr(`greenfix: ${verdict.line}`);
    if (options.json) io.stdout(JSON.stringify({ ready: verdict.ready, verdict: verdict.line, ...findings }));
    return verdict.ready ? ExitCode.verified : ExitCode.notVerified;
  } finally {
    await jobSandbox?.release();
    image?.release();
    await removeWorktree(repo, worktree);
    rmSync(dir, { recursive: true, force: true });
  }
}
