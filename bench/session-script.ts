import type { ScriptTurn } from '../src/model/scripted-script.js';
import { FLAG_NEW, FLAG_OLD } from './source-repo.js';

type Call = { name: string; arguments: Record<string, unknown> };
const turn = (call: Call): ScriptTurn => ({ content: null, tool_calls: [call] });

/**
 * A plausible fixing session of `steps` turns over `paths`: look around (list, search, read whole
 * files and their tails, shell one-liners), then edit, run the tests and finish on the verified
 * tree. Every exploring call differs from the last, as a real model's would (and so the stuck
 * detector stays quiet).
 */
export function sessionScript(paths: readonly string[], steps: number): ScriptTurn[] {
  if (steps < 4) throw new RangeError(`a session needs at least 4 steps, got ${steps}`);
  const turns: ScriptTurn[] = [turn({ name: 'list_files', arguments: { path: 'src', depth: 2 } })];
  for (let i = 0; turns.length < steps - 3; i++) turns.push(turn(explore(paths, i)));
  const first = paths[0] ?? '';
  turns.push(turn({ name: 'edit_file', arguments: { path: first, old: FLAG_OLD, new: FLAG_NEW } }));
  turns.push(turn({ name: 'run_tests', arguments: {} }));
  turns.push(turn({ name: 'finish', arguments: { summary: 'enabled the feature flag' } }));
  return turns;
}

function explore(paths: readonly string[], i: number): Call {
  const path = paths[i % paths.length] ?? '';
  const dir = path.slice(0, path.lastIndexOf('/'));
  switch (i % 5) {
    case 0:
      return { name: 'search', arguments: { pattern: `options\\.log\\?\\.\\('\\w+${i % 10}x`, path: dir } };
    case 1:
      return { name: 'read_file', arguments: { path } };
    case 2:
      return { name: 'read_file', arguments: { path, offset: 250, limit: 200 } };
    case 3:
      return { name: 'run', arguments: { command: `wc -l ${dir}/*.ts && grep -n 'Math.round' ${path} | head -40` } };
    default:
      return { name: 'read_file', arguments: { path: paths[(i + 7) % paths.length] ?? path } };
  }
}
