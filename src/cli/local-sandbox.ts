import { createSandbox } from '../sandbox/create-sandbox.js';
import type { Sandbox } from '../sandbox/types.js';
import { objectStoreOf } from '../workspace/sandbox-git-view.js';
import type { CliIo } from './io.js';

/**
 * The sandbox of a local command (fix, chat, doctor): the run's files (`workdir`) and the
 * repository's object store (which the sandbox's git view binds read-only) are greenfix's data,
 * so a command run inside the repository (the working directory is one of greenfix's own) works.
 */
export async function createLocalSandbox(io: CliIo, local: { workdir: string; repo: string }): Promise<Sandbox> {
  return createSandbox({ env: io.env, dataDirs: [local.workdir, await objectStoreOf(local.repo)], log: (level, message) => io.stderr(`greenfix: ${level}: ${message}`) });
}
