/**
 * One line of targeted advice for a failed `run` / `run_tests`, from a small table per language.
 * The table is data: a pattern over the output (ANSI colours stripped) and the advice it gives,
 * with the pattern's named groups filled in. Tested on real output of each runtime
 * (test/fixtures/error-output/).
 */
export interface ErrorHintRow {
  language: 'python' | 'javascript' | 'typescript' | 'tests';
  /** Named groups are available to `advice` as `{name}`. */
  pattern: RegExp;
  advice: string;
  /** Optional extra test on the groups (e.g. relative vs package module names). */
  when?: (groups: Record<string, string>) => boolean;
}

const relative = (g: Record<string, string>) => /^(\.{1,2}\/|\/)/.test(g.module ?? '');

export const ERROR_HINTS: readonly ErrorHintRow[] = [
  // Python
  { language: 'python', pattern: /NameError: name '(?<name>[^']+)' is not defined/, advice: '{name} is used before it is defined or imported' },
  {
    language: 'python',
    pattern: /ModuleNotFoundError: No module named '(?<module>[^']+)'/,
    advice: '{module} is not installed here and there is no network: use what is installed or the standard library',
  },
  {
    language: 'python',
    pattern: /File "(?<file>[^"]+)", line (?<line>\d+)\n(?:.*\n){0,3}?(?<kind>SyntaxError|IndentationError|TabError): (?<message>.*)/,
    advice: '{kind} in {file} line {line} ({message}): read those lines and fix them before anything else',
  },
  // JavaScript (node)
  { language: 'javascript', pattern: /ReferenceError: (?<name>\S+) is not defined/, advice: '{name} is used but never declared or imported in that scope' },
  {
    language: 'javascript',
    pattern: /TypeError: Cannot read propert(?:y|ies) of (?<what>undefined|null) \(reading '(?<prop>[^']+)'\)/,
    advice: "the value whose '{prop}' is read is {what}: find where it should have been set (a missing return, a wrong key, an await left out)",
  },
  { language: 'javascript', pattern: /ERR_REQUIRE_ESM/, advice: 'an ES module is loaded with require(): use import (or a dynamic import()) or make this file a module' },
  {
    language: 'javascript',
    pattern: /Cannot find (?:module|package) '(?<module>[^']+)'/,
    when: relative,
    advice: "no file at '{module}': check the path and extension relative to the importing file (list_files)",
  },
  {
    language: 'javascript',
    pattern: /Cannot find (?:module|package) '(?<module>[^']+)'/,
    when: (g) => !relative(g),
    advice: "package '{module}' is not installed and there is no network: use an installed package or write the code",
  },
  // TypeScript (tsc)
  { language: 'typescript', pattern: /error TS2304: Cannot find name '(?<name>[^']+)'/, advice: '{name} is not declared or imported where it is used (TS2304)' },
  {
    language: 'typescript',
    pattern: /error TS2339: Property '(?<prop>[^']+)' does not exist on type '(?<type>.+?)'\./,
    advice: "type '{type}' has no '{prop}': read the type's definition, then fix the name or the type (TS2339)",
  },
  // Test runners finding nothing to run
  { language: 'tests', pattern: /No tests found, exiting with code/, advice: 'the runner found no test files: check the test file names and the runner config' },
  { language: 'tests', pattern: /Ran 0 tests in|NO TESTS RAN|no tests ran in|collected 0 items/, advice: 'the runner found no tests: check the test file and function names (test_*.py, test_*)' },
  { language: 'tests', pattern: /^# tests 0$/m, advice: 'node --test found no tests: check the test file names (*.test.js, test/)' },
];

// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;]*m/g;

function fill(advice: string, groups: Record<string, string>): string {
  return advice.replace(/\{(\w+)\}/g, (_, k: string) => groups[k] ?? k);
}

/**
 * The hint for the error that appears LAST in the output (the one that stopped the program), or
 * null when no row matches.
 */
export function errorHint(output: string, rows: readonly ErrorHintRow[] = ERROR_HINTS): string | null {
  const text = output.replace(ANSI, '');
  let best: { at: number; hint: string } | null = null;
  for (const row of rows) {
    const flags = row.pattern.flags.includes('g') ? row.pattern.flags : `${row.pattern.flags}g`;
    for (const m of text.matchAll(new RegExp(row.pattern.source, flags))) {
      const groups = { ...(m.groups ?? {}) } as Record<string, string>;
      if (row.when && !row.when(groups)) continue;
      if (best === null || m.index > best.at) best = { at: m.index, hint: fill(row.advice, groups) };
    }
  }
  return best?.hint ?? null;
}

/** The observation's last line when a hint applies: `[hint: …]`. */
export function withErrorHint(observation: string, output: string): string {
  const hint = errorHint(output);
  return hint ? `${observation}\n[hint: ${hint}]` : observation;
}
