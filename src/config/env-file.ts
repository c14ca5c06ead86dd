import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { parseEnv } from 'node:util';

export class EnvFileError extends Error {}

/** The variables of an env file (`KEY=value` lines, as dotenv and Probot write them); none if it is missing. */
export function readEnvFile(path: string): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
  return Object.fromEntries(Object.entries(parseEnv(text)).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/** Merges `values` into the env file (created 0600: it holds the app's private key), written whole. */
export function updateEnvFile(path: string, values: Record<string, string>): void {
  const merged = { ...readEnvFile(path), ...values };
  const text = Object.entries(merged).map(([k, v]) => `${k}=${quote(v)}`).join('\n');
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, `${text}\n`, { mode: 0o600 });
  renameSync(tmp, path);
}

/** Node's parser (util.parseEnv) expands `\n` in double quotes and nothing else: a PEM fits, a `"` would not. */
function quote(value: string): string {
  if (/^[A-Za-z0-9_./:@+-]*$/.test(value)) return value;
  if (/["\\\r]/.test(value)) throw new EnvFileError('an env file value with a quote, backslash or carriage return cannot be written safely');
  return `"${value.replace(/\n/g, '\\n')}"`;
}
