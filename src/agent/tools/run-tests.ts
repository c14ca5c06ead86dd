import { closeSync } from 'node:fs';
import { z } from 'zod';
import type { SandboxResult } from '../../sandbox/types.js';
import { clipHeadTail } from '../../util/clip.js';
import { openRegularFile, readFd } from '../../util/regular-file.js';
import { describeExit, lastLines } from './command-output.js';
import { withErrorHint } from './error-hints.js';
import { claimScratchFile } from './scratch.js';
import type { Tool, ToolContext, ToolResult } from './types.js';

const TAIL_LINES = 60;
const TAIL_READ_BYTES = 64 * 1024;

const schema = z.object({});

/**
 * The end of the combined, in-order output file (host-owned, outside the worktree; opened without
 * following links or blocking all the same); falls back to the captured streams.
 */
function outputTail(file: string, r: SandboxResult): string {
  try {
    const fd = openRegularFile(file, 'read');
    let buf: Buffer;
    try {
      buf = readFd(fd, TAIL_READ_BYTES, true);
    } finally {
      closeSync(fd);
    }
    if (buf.length > 0) return lastLines(buf.toString('utf8'), TAIL_LINES);
  } catch {
    /* no file: use what the sandbox captured */
  }
  return lastLines(`${r.stdout}${r.stderr}`, TAIL_LINES);
}

const notConfigured: ToolResult = {
  ok: false,
  output:
    'no test command is configured, so nothing can be verified. The user sets one with `verify:` in .github/greenfix.yml (or --verify in local mode). Finish with gave_up: true and say so.',
};

const SHOWN_ARTEFACTS = 20;

/** Said once per path, the first time a test run writes it. */
function artefactNote(first: string[]): string {
  if (first.length === 0) return '';
  const shown = first.slice(0, SHOWN_ARTEFACTS).join(', ');
  const more = first.length > SHOWN_ARTEFACTS ? ` and ${first.length - SHOWN_ARTEFACTS} more` : '';
  return `\n[the tests wrote ${shown}${more}: test artefacts, left out of the verified tree and the commit whatever later runs write there; edit one with edit_file only if it really belongs to the change]`;
}

async function runTests(ctx: ToolContext, command: string): Promise<ToolResult> {
  const { workspace, limits } = ctx;
  const outputFile = claimScratchFile(workspace.scratchDir, 'tests');
  const before = await workspace.treeHash();
  const observed = await workspace.observe(
    () =>
      ctx.sandbox.run({
        command,
        workspace: workspace.root,
        readOnlyBinds: workspace.sandboxBinds,
        timeoutMs: limits.testTimeoutSec * 1000,
        outputFile,
        signal: ctx.signal,
      }),
    'tests',
  );
  const after = await workspace.treeHash();
  const r = observed.value;
  const tail = clipHeadTail(outputTail(outputFile, r), Math.max(500, limits.outputChars - 500));
  const full = `[full output: ${outputFile} (read_file it)]${artefactNote(observed.artefacts?.first ?? [])}`;
  if (r.exitCode !== 0 || r.timedOut) {
    return { ok: false, output: withErrorHint(`tests failed (${describeExit(r, limits.testTimeoutSec)}): not verified.\n${tail}\n${full}`, tail) };
  }
  if (observed.changed.length > 0 || after !== before) {
    const which = observed.changed.length > 0 ? `: ${observed.changed.join(', ')}` : '';
    return { ok: false, output: `tests passed, but the test run changed source files${which} — verification void. Make the tests leave sources alone, or revert what they changed, then run_tests again. If one is an output of the tests (a log, a report) that a run command made first, delete it and run_tests again: what run_tests itself creates is a test artefact, left out of the tree.\n${full}` };
  }
  return {
    ok: true,
    output: `tests passed (exit code 0 in ${(r.durationMs / 1000).toFixed(1)}s): tree ${after} verified. Finish now, or change more and run_tests again.\n${tail}${artefactNote(observed.artefacts?.first ?? [])}`,
    verified: { tree: after, command, exitCode: 0, durationMs: r.durationMs, outputTail: tail },
  };
}

export const runTestsTool: Tool<typeof schema> = {
  name: 'run_tests',
  description: "Run the repository's test command. On exit 0 with sources untouched, the current tree becomes verified.",
  schema,
  readOnly: false,
  execute: (_args, ctx) => (ctx.verifyCommand === null ? Promise.resolve(notConfigured) : runTests(ctx, ctx.verifyCommand)),
};
