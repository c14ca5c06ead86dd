// Compiles greenfix's native helper (native/inotify-feed.c, the tree hash's change feed) into
// dist/native/. Without a C compiler it says so and stops there: greenfix then hashes every file.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';

mkdirSync('dist/native', { recursive: true });
const cc = process.env.CC || 'cc';
const result = spawnSync(cc, ['-O2', '-Wall', '-Wextra', '-Werror', '-o', 'dist/native/inotify-feed', 'native/inotify-feed.c'], { stdio: 'inherit' });
if (result.status !== 0) console.warn(`build-native: ${cc} could not compile native/inotify-feed.c; the tree hash will stat every file (no change feed)`);
