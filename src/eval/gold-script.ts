import type { ScriptTurn } from '../model/scripted-script.js';
import type { PatchedFile } from './instance-git.js';

/** A path quoted for bash: single quotes, each quote inside closed, escaped and reopened. */
function quoted(path: string): string {
  return `'${path.replace(/'/g, `'\\''`)}'`;
}

const call = (name: string, args: Record<string, unknown>): ScriptTurn => ({ content: null, tool_calls: [{ name, arguments: args }] });

/**
 * The gold control's script: the model's turns that make exactly the gold change with the agent's
 * own tools (edit_file for a changed file, write_file for a new one, `rm` through run for a
 * deleted one), then run_tests and finish. Run through the same fix as any model, it checks the
 * harness: every instance whose gold change is right must resolve. Only this control sees the
 * gold change; no model does.
 */
export function goldScript(files: readonly PatchedFile[]): ScriptTurn[] {
  const edits = files.flatMap((f): ScriptTurn[] => {
    const remove = call('run', { command: `rm -f -- ${quoted(f.path)}` });
    if (f.after === null) return [remove];
    if (f.before === null) return [call('write_file', { path: f.path, content: f.after })];
    // edit_file needs text to replace: an empty file is removed and written anew.
    if (f.before === '') return [remove, call('write_file', { path: f.path, content: f.after })];
    return [call('edit_file', { path: f.path, old: f.before, new: f.after })];
  });
  return [...edits, call('run_tests', {}), call('finish', { summary: 'the gold change, replayed' })];
}
