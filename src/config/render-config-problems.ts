import { CONFIG_PATH } from './parse-repo-config.js';

/** Finds the one config-errors comment of an issue, so it is edited rather than repeated. */
export const CONFIG_ERRORS_MARKER = '<!-- greenfix:config-errors -->';

const EXAMPLE = `label: agent-fix          # the label that starts a fix
verify: npm test          # the command that must pass (detected when absent)
autofix:
  humans: false           # fix red CI on people's pull requests too
  max_attempts: 3`;

/** The Markdown of the comment listing every problem of `.github/greenfix.yml`, with a valid example. */
export function renderConfigProblems(problems: string[]): string {
  const count = problems.length === 1 ? 'one problem' : `${problems.length} problems`;
  return [
    CONFIG_ERRORS_MARKER,
    `### greenfix cannot use \`${CONFIG_PATH}\``,
    '',
    `The file has ${count}, so greenfix will not run in this repository until it is fixed:`,
    '',
    ...problems.map((p) => `- ${p}`),
    '',
    'Every key is optional. A minimal valid file:',
    '',
    '```yaml',
    EXAMPLE,
    '```',
    '',
    'Once the file on the default branch is fixed, comment `/agent retry` here.',
  ].join('\n');
}
