import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * Real webhook payloads from @octokit/webhooks-examples, picked by event name and action, with
 * overrides deep-merged on top (objects merge, arrays and scalars replace, `undefined` deletes a key).
 * Examples without an `installation` get `{ id: 4242 }`: a GitHub App always receives one.
 */

interface ExampleGroup {
  name: string;
  examples: Array<Record<string, unknown>>;
}

export const EXAMPLE_INSTALLATION_ID = 4242;

const require = createRequire(import.meta.url);
const indexPath = require.resolve('@octokit/webhooks-examples/api.github.com/index.json');

/** Read once per test file (4 MB); never changed: every payload handed out is a deep copy. */
const EXAMPLES = JSON.parse(readFileSync(indexPath, 'utf8')) as readonly ExampleGroup[];

type Json = Record<string, unknown>;

function isPlainObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Returns a new value; neither argument is changed. */
export function deepMerge(base: unknown, override: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(override)) return structuredClone(override);
  const out: Json = structuredClone(base);
  for (const [key, value] of Object.entries(override)) {
    if (value === undefined) delete out[key];
    else out[key] = key in out ? deepMerge(out[key], value) : structuredClone(value);
  }
  return out;
}

/** The first example of `event` with `action` (`''` for events without actions), merged with `overrides`. */
export function examplePayload(event: string, action: string, overrides: object = {}): Json {
  const group = EXAMPLES.find((g) => g.name === event);
  if (!group) throw new Error(`no webhook examples for event ${event}`);
  const example = group.examples.find((e) => (e.action ?? '') === action);
  if (!example) throw new Error(`no webhook example for ${event}.${action}`);
  const withInstallation = 'installation' in example ? example : { ...example, installation: { id: EXAMPLE_INSTALLATION_ID } };
  return deepMerge(withInstallation, overrides) as Json;
}
