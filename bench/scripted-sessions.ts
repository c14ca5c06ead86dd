import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ContextLimits } from '../src/agent/context.js';
import { ScriptedModel } from '../src/model/scripted-model.js';
import type { ChatModel } from '../src/model/types.js';
import type { Sandbox } from '../src/sandbox/types.js';
import { benchWorktree } from './bench-worktree.js';
import { runScripted } from './scripted-run.js';
import { sessionScript } from './session-script.js';
import { makeSourceRepo, VERIFY_COMMAND } from './source-repo.js';

export interface ScriptedSessions {
  /**
   * One run of the same `steps`-step script in a fresh worktree of the same repository, through
   * the model `wrap` makes of the scripted one; a run that does not verify in exactly `steps` fails.
   */
  run(name: string, context: ContextLimits, wrap: (model: ChatModel) => ChatModel): Promise<void>;
}

/**
 * A generated repository of `files` sources in a temp dir named `prefix…`, the bench session script
 * over it, and `body` to run sessions on them; the dir is removed afterwards.
 */
export async function withScriptedSessions<T>(
  options: { prefix: string; sandbox: Sandbox; steps: number; files: number },
  body: (sessions: ScriptedSessions) => Promise<T>,
): Promise<T> {
  const { sandbox, steps, files } = options;
  const dir = realpathSync(mkdtempSync(join(tmpdir(), options.prefix)));
  try {
    await chmod(dir, 0o711); // the sandbox uid must pass through to the worktrees
    const repo = join(dir, 'repo');
    mkdirSync(repo);
    const paths = await makeSourceRepo(repo, { files, minLines: 300, maxLines: 600 });
    const turns = sessionScript(paths, steps);
    return await body({
      async run(name, context, wrap) {
        const runDir = join(dir, name);
        mkdirSync(runDir);
        const workspace = await benchWorktree(repo, join(runDir, 'worktree'), join(runDir, 'state'));
        const outcome = await runScripted({ model: wrap(new ScriptedModel(turns)), workspace, sandbox, context, verifyCommand: VERIFY_COMMAND, dir: runDir, maxSteps: steps + 1 });
        if (outcome.status !== 'verified' || outcome.steps !== steps) {
          throw new Error(`bench session "${name}" ended ${outcome.status} after ${outcome.steps} of ${steps} steps: ${outcome.reason}`);
        }
      },
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
