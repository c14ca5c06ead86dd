import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** What `npm run build` publishes (`files: ["dist"]`): greenfix's own code, never test helpers or benchmarks. */
describe('dist/', () => {
  const root = 'dist';

  function files(dir: string): string[] {
    return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [relative(root, join(dir, e.name))]));
  }

  it('holds src and the native helper only (npm test builds it first)', () => {
    const outside = files(root).filter((f) => !f.startsWith(`src/`));
    // native/inotify-feed.c compiled by scripts/build-native.mjs (the tree hash's change feed).
    expect(outside).toEqual(['native/inotify-feed']);
    expect(files(root).some((f) => f === 'src/cli/main.js')).toBe(true);
  });

  it('is built from src alone', () => {
    const config = JSON.parse(readFileSync('tsconfig.build.json', 'utf8')) as { include: string[] };
    expect(config.include).toEqual(['src']);
  });
});
