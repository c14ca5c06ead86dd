import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeOciLayout, type LayerEntry } from './oci-image.js';
import { TempDirs } from './temp-dir.js';

/** The tool only the test image has: the host has no such command. */
export const IMAGE_TOOL = 'greenfix-image-tool';

/**
 * A small userland copied from the host: bash and the libraries it loads (the sandbox starts every
 * command with bash), busybox (static) for sh, cat, grep…, an /etc/passwd, and IMAGE_TOOL, a script
 * that passes when `answer.txt` in the current directory says 42 — so a fix verifies only inside the image.
 */
export function toolImageLayer(): LayerEntry[] {
  const entries: LayerEntry[] = [];
  const dirs = new Set<string>();
  const dir = (path: string) => {
    const parts = path.split('/').slice(0, -1);
    for (let i = 1; i <= parts.length; i++) {
      const d = parts.slice(0, i).join('/');
      if (!dirs.has(d)) {
        dirs.add(d);
        entries.push({ path: `${d}/`, kind: 'dir' });
      }
    }
  };
  const file = (path: string, content: Buffer | string, mode = 0o644) => {
    dir(path);
    entries.push({ path, kind: 'file', content, mode });
  };
  const bash = realpathSync('/bin/bash');
  file('usr/bin/bash', readFileSync(bash), 0o755);
  for (const lib of sharedLibraries(bash)) file(lib.slice(1), readFileSync(realpathSync(lib)), 0o755);
  // glibc's C.UTF-8 (the sandbox sets LC_ALL=C.UTF-8), as Debian's images carry it.
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else file(path.slice(1), readFileSync(path));
    }
  };
  walk('/usr/lib/locale/C.utf8');
  file('bin/busybox', readFileSync('/usr/bin/busybox'), 0o755);
  for (const applet of ['sh', 'cat', 'grep', 'echo', 'ls', 'id', 'env', 'test', 'true', 'false', 'mkdir', 'rm', 'sed', 'printf', 'uname', 'wc', 'head', 'sleep', 'wget', 'touch']) {
    entries.push({ path: `bin/${applet}`, kind: 'symlink', target: 'busybox' });
  }
  entries.push({ path: 'usr/bin/env', kind: 'symlink', target: '/bin/busybox' });
  file('etc/passwd', 'root:x:0:0:root:/root:/bin/sh\n');
  file('etc/group', 'root:x:0:\n');
  file('etc/os-release', 'ID=greenfix-test-image\n');
  file(
    `usr/local/bin/${IMAGE_TOOL}`,
    '#!/bin/sh\n# passes when answer.txt says 42\nif [ "$(cat answer.txt 2>/dev/null)" = "42" ]; then echo "ok 1 - the answer"; exit 0; fi\necho "not ok 1 - the answer: got $(cat answer.txt 2>/dev/null)"; exit 1\n',
    0o755,
  );
  return entries;
}

/** The absolute paths of the shared libraries (and the loader) `binary` loads on this host. */
function sharedLibraries(binary: string): string[] {
  const out = execFileSync('ldd', [binary], { encoding: 'utf8' });
  return [...out.matchAll(/(\/[^\s]+) \(0x/g)].map((m) => m[1] as string);
}

/**
 * Writes the layers as an OCI image and pushes it to `registry` as `name:tag` with skopeo (plain
 * HTTP; `creds` user:password for a registry with auth). Returns the reference.
 */
export function pushImage(registry: string, name: string, layers: readonly (readonly LayerEntry[])[], creds?: string): string {
  const temp = new TempDirs();
  try {
    const layout = join(temp.make('gf-oci-'), 'layout');
    writeOciLayout(layout, 'v1', layers);
    const reference = `${registry}/${name}:v1`;
    const auth = creds ? ['--dest-creds', creds] : ['--dest-no-creds'];
    execFileSync('skopeo', ['copy', '--quiet', '--dest-tls-verify=false', ...auth, `oci:${layout}:v1`, `docker://${reference}`], { stdio: 'pipe', env: { PATH: '/usr/bin:/bin', HOME: temp.make('gf-skopeo-home-') } });
    return reference;
  } finally {
    temp.cleanup();
  }
}
