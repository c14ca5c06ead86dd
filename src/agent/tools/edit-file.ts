import * as z from 'zod';
import { ambiguousMessage, notFoundMessage, numberedExcerpt } from './edit-diagnostics.js';
import { findEdit, lineAt, occurrences, stripLineNumbers } from './edit-strategies.js';
import { ToolRefusal } from './errors.js';
import { createFile, rewriteFile } from './file-write.js';
import { resolveInWorkspace } from './paths.js';
import { guardSyntax } from './syntax-guard.js';
import { loadTextFile, splitLines, statOrNull } from './text-file.js';
import type { Tool, ToolContext, ToolResult } from './types.js';

const schema = z.object({
  path: z.string(),
  old: z.string().describe('exact text to replace, unique in the file'),
  new: z.string().describe('replacement text'),
});

const CONTEXT_LINES = 3;

async function createWithEdit(abs: string, rel: string, content: string, ctx: ToolContext): Promise<ToolResult> {
  if (statOrNull(abs)) throw new ToolRefusal('exists', `${rel} exists: old must quote the text to replace (old "" only creates missing files)`);
  const refusal = await guardSyntax(rel, null, content);
  if (refusal) return { ok: false, output: refusal };
  ctx.workspace.release(rel);
  createFile(abs, content, ctx.fileOwner);
  return { ok: true, output: `created ${rel} (${splitLines(content).length} lines)` };
}

/** True when the edit's result is already in the file (a repeated call, or the model forgot it did it). */
function alreadyApplied(text: string, replacement: string): boolean {
  if (replacement.trim() === '') return false;
  const variants = [replacement, stripLineNumbers(replacement) ?? replacement];
  return variants.some((v) => text.includes(v) || text.includes(v.replace(/\r?\n/g, '\r\n')));
}

export const editFileTool: Tool<typeof schema> = {
  name: 'edit_file',
  description:
    'Replace the one occurrence of `old` with `new` in a file. Quote enough lines to make `old` unique. With old "" on a missing path, creates the file.',
  schema,
  readOnly: false,
  async execute(args, ctx) {
    const { abs, rel } = resolveInWorkspace(ctx.workspace.root, args.path);
    if (args.old === '') return createWithEdit(abs, rel, args.new, ctx);
    const { text } = loadTextFile(abs, rel);
    if (args.old === args.new) return { ok: false, output: 'old and new are identical: nothing to change' };
    const outcome = findEdit(text, args.old, args.new);
    if (outcome.kind === 'ambiguous') return { ok: false, output: ambiguousMessage(rel, outcome.lines, outcome.strategy) };
    if (outcome.kind === 'none') {
      if (alreadyApplied(text, args.new)) {
        return { ok: false, output: `already applied: ${rel} contains new and not old; nothing changed` };
      }
      return { ok: false, output: notFoundMessage(rel, text, args.old) };
    }
    const { start, end, replacement, strategy } = outcome.match;
    const updated = text.slice(0, start) + replacement + text.slice(end);
    const refusal = await guardSyntax(rel, text, updated);
    if (refusal) return { ok: false, output: refusal };
    ctx.workspace.release(rel);
    rewriteFile(abs, updated);

    const first = lineAt(updated, start);
    const last = first + Math.max(0, occurrences(replacement.replace(/\r?\n$/, ''), '\n').length);
    const range = replacement === '' ? `removed text at line ${first}` : `lines ${first}–${last} now`;
    return {
      ok: true,
      output: `edited ${rel} (${strategy}): ${range}:\n${numberedExcerpt(updated, first - CONTEXT_LINES, last + CONTEXT_LINES)}`,
    };
  },
};
