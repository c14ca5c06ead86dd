import { truncate } from '../util/truncate.js';

/** The call's arguments as JSON with every string redacted; the raw (redacted) text when they do not parse. */
export function callArguments(raw: string, redact: (text: string) => string): Record<string, unknown> | string {
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return redactDeep(parsed) as Record<string, unknown>;
  } catch {
    // not JSON: shown as it came
  }
  return redact(raw);

  function redactDeep(value: unknown): unknown {
    if (typeof value === 'string') return redact(value);
    if (Array.isArray(value)) return value.map(redactDeep);
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactDeep(v)]));
    return value;
  }
}

const SHORT_CHARS = 80;

/** One line saying what the call was about: the path, the pattern, the command. */
export function shortArguments(tool: string, args: Record<string, unknown> | string): string {
  if (typeof args === 'string') return oneLine(args);
  const s = (key: string): string | null => (typeof args[key] === 'string' ? (args[key] as string) : null);
  switch (tool) {
    case 'read_file': {
      const range = typeof args.offset === 'number' ? `:${args.offset}${typeof args.limit === 'number' ? `+${args.limit}` : ''}` : '';
      return oneLine(`${s('path') ?? '?'}${range}`);
    }
    case 'list_files':
      return oneLine(s('path') ?? '.');
    case 'search':
      return oneLine(`${s('pattern') ?? ''}${s('path') ? ` in ${s('path')}` : ''}${s('glob') ? ` (${s('glob')})` : ''}`);
    case 'edit_file':
    case 'write_file':
      return oneLine(s('path') ?? '?');
    case 'run':
      return oneLine(s('command') ?? '');
    case 'run_tests':
      return '';
    case 'finish':
      return oneLine(`${args.gave_up === true ? 'gave up: ' : ''}${s('summary') ?? ''}`);
    default:
      return oneLine(JSON.stringify(args));
  }
}

function oneLine(text: string): string {
  return truncate(text.replace(/\s+/g, ' ').trim(), SHORT_CHARS);
}

/** The exit code a tool output names (`exit code: 2`, `exit code 0 in …`); null when killed or unnamed. */
export function exitOf(output: string): number | null {
  const m = /exit code:? (\d+)/.exec(output);
  return m?.[1] === undefined ? null : Number(m[1]);
}
