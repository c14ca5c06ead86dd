import * as z from 'zod';
import { addedLines } from '../../workspace/added-lines.js';
import { describeSecrets, scanAddedLines } from '../../verify/secret-scan.js';
import type { Tool } from './types.js';

const schema = z.object({
  summary: z.string().min(1).describe('what you changed and why (or why you gave up)'),
  gave_up: z.boolean().optional().describe('true to stop without a verified fix'),
});

/** The gate the model meets first: success only on exactly the tree the tests passed on. */
export const finishTool: Tool<typeof schema> = {
  name: 'finish',
  description: 'End the run. Accepted only when the current tree passed run_tests (unchanged since), or with gave_up: true.',
  schema,
  readOnly: true,
  async execute(args, ctx) {
    if (args.gave_up) return { ok: true, output: 'finished (gave up)', finish: { summary: args.summary, gaveUp: true } };
    const current = await ctx.workspace.treeHash();
    if (!ctx.verified) {
      return { ok: false, output: 'refused: the tests were never run green on this tree. Call run_tests; finish once it passes (or finish with gave_up: true).' };
    }
    if (ctx.verified.tree !== current) {
      return { ok: false, output: 'refused: files changed since the last green run_tests. Run run_tests again, then finish.' };
    }
    const secrets = scanAddedLines(await addedLines(ctx.workspace.gitDir, ctx.workspace.baseCommit, current));
    if (secrets.length > 0) {
      return { ok: false, output: `refused: the change adds what looks like a credential, and nothing with a secret in it is published:\n${describeSecrets(secrets)}\nRemove it (read it from the environment or leave a placeholder), run run_tests, then finish.` };
    }
    return { ok: true, output: `finished: tree ${current} verified`, finish: { summary: args.summary, gaveUp: false } };
  },
};
