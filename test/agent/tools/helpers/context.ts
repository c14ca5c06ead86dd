import { join } from 'node:path';
import { createUnsandboxed } from '../../../../src/sandbox/unsandboxed.js';
import type { Sandbox } from '../../../../src/sandbox/types.js';
import type { ToolContext, ToolLimits } from '../../../../src/agent/tools/types.js';
import { GitWorkspace } from '../../../../src/workspace/git-workspace.js';
import type { ObservableWorkspace } from '../../../../src/workspace/types.js';
import { makeRepo } from './repo.js';

export const LIMITS: ToolLimits = { outputChars: 20_000, runTimeoutSec: 30, runTimeoutMaxSec: 60, testTimeoutSec: 60 };

export interface Fixture {
  root: string;
  workspace: ObservableWorkspace;
  sandbox: Sandbox;
  ctx: (over?: Partial<ToolContext>) => ToolContext;
  cleanup: () => void;
}

/**
 * A real git repo with `files` committed, the real GitWorkspace over it and the unsandboxed
 * runner (the bwrap sandbox is exercised by test/sandbox; these tests are about the tools).
 */
export async function makeFixture(files: Record<string, string | Buffer> = {}): Promise<Fixture> {
  const repo = makeRepo(files);
  const workspace = await GitWorkspace.open({ root: repo.root, baseCommit: repo.base, stateDir: join(repo.tmp, 'state') });
  const sandbox = createUnsandboxed();
  const ctx = (over: Partial<ToolContext> = {}): ToolContext => ({
    workspace,
    sandbox,
    verifyCommand: null,
    verified: null,
    fileOwner: null,
    limits: LIMITS,
    ...over,
  });
  return { root: repo.root, workspace, sandbox, ctx, cleanup: repo.cleanup };
}
