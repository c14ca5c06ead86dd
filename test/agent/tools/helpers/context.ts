import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { createSandbox } from '../../../../src/sandbox/create-sandbox.js';
import { sandboxFileOwner } from '../../../../src/sandbox/ownership.js';
import { prepareWorkspaceOwnership } from '../../../../src/sandbox/prepare-workspace-ownership.js';
import { createUnsandboxed } from '../../../../src/sandbox/unsandboxed.js';
import type { Sandbox } from '../../../../src/sandbox/types.js';
import type { ToolContext, ToolLimits } from '../../../../src/agent/tools/types.js';
import { GitWorkspace } from '../../../../src/workspace/git-workspace.js';
import type { ObservableWorkspace } from '../../../../src/workspace/types.js';
import { repoFixture } from './repo.js';

export const LIMITS: ToolLimits = { outputChars: 20_000, runTimeoutSec: 30, runTimeoutMaxSec: 60, testTimeoutSec: 60 };

export interface Fixture {
  root: string;
  workspace: ObservableWorkspace;
  sandbox: Sandbox;
  ctx: (over?: Partial<ToolContext>) => ToolContext;
  cleanup: () => void;
}

/**
 * A real git repo with `files` committed and the real GitWorkspace over it. Commands run
 * unsandboxed by default (fast; isolation itself is test/sandbox's subject), or in the real
 * bubblewrap sandbox with the worktree handed to the sandbox uid, as a deployment does.
 */
export async function makeFixture(files: Record<string, string | Buffer> = {}, mode: 'unsandboxed' | 'bwrap' = 'unsandboxed'): Promise<Fixture> {
  const repo = repoFixture(files);
  const fileOwner = mode === 'bwrap' ? sandboxFileOwner() : null;
  if (mode === 'bwrap') {
    chmodSync(repo.tmp, 0o755);
    await prepareWorkspaceOwnership(repo.root, fileOwner);
  }
  const workspace = await GitWorkspace.open({ root: repo.root, baseCommit: repo.base, stateDir: join(repo.tmp, 'state') });
  const sandbox = mode === 'bwrap' ? await createSandbox({ env: { PATH: process.env.PATH }, log: () => undefined }) : createUnsandboxed();
  const ctx = (over: Partial<ToolContext> = {}): ToolContext => ({
    workspace,
    sandbox,
    verifyCommand: null,
    verified: null,
    fileOwner,
    limits: LIMITS,
    ...over,
  });
  return { root: repo.root, workspace, sandbox, ctx, cleanup: repo.cleanup };
}
