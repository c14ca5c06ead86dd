import { CONFIG_PATH } from './parse-repo-config.js';

/**
 * What a failed read of `.github/greenfix.yml` means, decided on the error's class, name and HTTP
 * status, never its text:
 * - 404: no file (Probot already maps it to null; a custom reader may not);
 * - another HTTP status: GitHub's problem, not the user's → rethrown (the job retries);
 * - a YAML error (yaml's `YAMLParseError`, js-yaml's `YAMLException`), also as the `cause` of the
 *   config plugin's own error → a problem, with the parser's reason and line;
 * - a plain `Error` without a status: the config plugin refusing the file (a directory, a string
 *   document) → a problem quoting it.
 */
export type ConfigReadFailure = { kind: 'missing' } | { kind: 'problem'; problem: string } | { kind: 'rethrow' };

const YAML_ERROR_NAMES: ReadonlySet<string> = new Set(['YAMLParseError', 'YAMLException', 'YAMLSemanticError', 'YAMLSyntaxError']);

export function classifyConfigReadError(error: unknown): ConfigReadFailure {
  const status = (error as { status?: unknown } | null)?.status;
  if (status === 404) return { kind: 'missing' };
  if (typeof status === 'number') return { kind: 'rethrow' };
  const yamlError = findYamlError(error);
  if (yamlError) return { kind: 'problem', problem: `\`${CONFIG_PATH}\` is not valid YAML: ${yamlReason(yamlError)}` };
  if (error instanceof Error && error.constructor === Error) {
    return { kind: 'problem', problem: `\`${CONFIG_PATH}\` could not be read as a configuration file: ${withoutTag(firstLine(error.message))}` };
  }
  return { kind: 'rethrow' };
}

function findYamlError(error: unknown): Error | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    if (YAML_ERROR_NAMES.has(current.name)) return current;
  }
  return undefined;
}

/** js-yaml has `reason` and a 0-based `mark`; yaml's message already ends "at line L, column C:" before a snippet. */
function yamlReason(error: Error): string {
  const { reason, mark } = error as { reason?: unknown; mark?: { line?: unknown; column?: unknown } };
  if (typeof reason === 'string' && typeof mark?.line === 'number' && typeof mark.column === 'number') {
    return `${reason} (line ${mark.line + 1}, column ${mark.column + 1})`;
  }
  return firstLine(error.message).replace(/:$/, '');
}

/** Drops a leading `[@probot/octokit-plugin-config]`-style tag: the reader does not care which library spoke. */
function withoutTag(text: string): string {
  return text.replace(/^\[[^\]]*\]\s*/, '');
}

function firstLine(text: string): string {
  return (text.split('\n')[0] ?? '').trim().slice(0, 300);
}
