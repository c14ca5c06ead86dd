import * as z from 'zod';
import { formatCommandOutput } from './command-output.js';
import { withErrorHint } from './error-hints.js';
import { claimScratchFile } from './scratch.js';
import type { Tool } from './types.js';

const schema = z.object({
  command: z.string().min(1).describe('bash command, run at the repo root'),
  timeout: z.number().positive().optional().describe('seconds'),
});

export const runTool: Tool<typeof schema> = {
  name: 'run',
  description: 'Run a bash command in the sandbox (no network). Returns exit code and clipped stdout/stderr.',
  schema,
  readOnly: false,
  async execute(args, ctx) {
    const { workspace, limits } = ctx;
    const timeoutSec = Math.min(args.timeout ?? limits.runTimeoutSec, limits.runTimeoutMaxSec);
    const outputFile = claimScratchFile(workspace.scratchDir, 'run');
    const r = await ctx.sandbox.run({
      command: args.command,
      workspace: workspace.root,
      readOnlyBinds: workspace.sandboxBinds,
      timeoutMs: Math.round(timeoutSec * 1000),
      outputFile,
      signal: ctx.signal,
    });
    const output = formatCommandOutput(r, timeoutSec, limits.outputChars, outputFile);
    const ok = r.exitCode === 0;
    return { ok, output: ok ? output : withErrorHint(output, `${r.stdout}\n${r.stderr}`) };
  },
};
