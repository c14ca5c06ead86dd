import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

/** What `npm init` writes: a test script that only fails. Not a test suite. */
const NPM_PLACEHOLDER_TEST = 'echo "Error: no test specified" && exit 1';

const PackageJson = z.object({ scripts: z.record(z.string(), z.unknown()).optional() }).loose();

export interface NodeCommands {
  setup: string;
  verify: string | null;
}

/** Null unless there is a package.json that parses as an object (a malformed one is no project). */
export function detectNode(root: string): NodeCommands | null {
  const pkg = readPackageJson(root);
  if (!pkg) return null;
  const has = (file: string) => existsSync(join(root, file));
  const manager = has('pnpm-lock.yaml') ? 'pnpm' : has('yarn.lock') ? 'yarn' : 'npm';
  const setup =
    manager === 'pnpm'
      ? 'pnpm install --frozen-lockfile'
      : manager === 'yarn'
        ? 'yarn install --frozen-lockfile'
        : has('package-lock.json') || has('npm-shrinkwrap.json')
          ? 'npm ci'
          : 'npm install';
  const test = pkg.scripts?.test;
  const verify = typeof test === 'string' && test.trim() !== '' && test.trim() !== NPM_PLACEHOLDER_TEST ? `${manager} test` : null;
  return { setup, verify };
}

function readPackageJson(root: string): z.infer<typeof PackageJson> | null {
  try {
    const parsed = PackageJson.safeParse(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
