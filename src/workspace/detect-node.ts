import * as z from 'zod';
import { hasProjectFile, readProjectFile } from './project-file.js';

/** What `npm init` writes: a test script that only fails. Not a test suite. */
const NPM_PLACEHOLDER_TEST = 'echo "Error: no test specified" && exit 1';

const PackageJson = z.object({ scripts: z.record(z.string(), z.unknown()).optional() }).loose();

export interface NodeCommands {
  setup: string;
  verify: string | null;
}

/** Null unless there is a package.json that parses as an object (a malformed one is no project). */
export function detectNode(root: string, warn?: (message: string) => void): NodeCommands | null {
  const pkg = readPackageJson(root, warn);
  if (!pkg) return null;
  const has = (file: string) => hasProjectFile(root, file);
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

function readPackageJson(root: string, warn?: (message: string) => void): z.infer<typeof PackageJson> | null {
  const text = readProjectFile(root, 'package.json', warn);
  if (text === null) return null;
  try {
    const parsed = PackageJson.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
