import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { writeFiles } from './make-repo.js';

/** What a developer's home holds that must never reach the sandbox. */
export const HOME_SECRETS = { ssh: 'ssh-private-key-5b1e', npmrc: 'npmrc-token-0c77', cargo: 'cargo-credentials-93aa' };

/**
 * A home directory laid out the way developers install toolchains, with tools the host does not
 * have: pyenv (`shims/python` → `versions/<v>/bin/python`, a python whose site-packages hold a tiny
 * test runner, `minitest`), rustup and cargo (`~/.cargo/bin/cargo`, a proxy that reads the default
 * toolchain from `~/.rustup/settings.toml` and execs `~/.rustup/toolchains/<t>/bin/cargo`, whose
 * `test` runs `tests/*.sh` and reports in cargo's format), and credentials beside them.
 * Returns the PATH a shell profile would set up (managers first, then the system's only).
 */
export function makeToolchainHome(home: string): { path: string } {
  writeFiles(home, {
    // pyenv: the shim finds the root through PYENV_ROOT and the version in $PYENV_ROOT/version.
    '.pyenv/version': '3.11.99\n',
    '.pyenv/shims/python':
      '#!/bin/bash\nset -e\n[ -n "$PYENV_ROOT" ] || { echo "pyenv: PYENV_ROOT is not set" >&2; exit 127; }\n' +
      'v=${PYENV_VERSION:-$(cat "$PYENV_ROOT/version")}\nexec "$PYENV_ROOT/versions/$v/bin/$(basename "$0")" "$@"\n',
    '.pyenv/versions/3.11.99/bin/python':
      '#!/bin/bash\nprefix=$(cd "$(dirname "$0")/.." && pwd)\nPYTHONPATH="$prefix/lib/site-packages${PYTHONPATH:+:$PYTHONPATH}" exec /usr/bin/python3 "$@"\n',
    '.pyenv/versions/3.11.99/lib/site-packages/minitest/__init__.py': '',
    '.pyenv/versions/3.11.99/lib/site-packages/minitest/__main__.py': [
      'import glob, importlib.util, sys, traceback',
      'sys.path.insert(0, ".")',
      'failed = passed = 0',
      'for path in sorted(glob.glob("test_*.py")):',
      '    spec = importlib.util.spec_from_file_location(path[:-3], path)',
      '    module = importlib.util.module_from_spec(spec)',
      '    spec.loader.exec_module(module)',
      '    for name in sorted(n for n in dir(module) if n.startswith("test_")):',
      '        try:',
      '            getattr(module, name)()',
      '            passed += 1',
      '            print(f"{path}::{name} PASSED")',
      '        except Exception:',
      '            failed += 1',
      '            print(f"{path}::{name} FAILED")',
      '            traceback.print_exc()',
      'print(f"{passed} passed, {failed} failed")',
      'sys.exit(1 if failed else 0)',
      '',
    ].join('\n'),
    // rustup: the proxy in cargo's bin needs RUSTUP_HOME; the toolchain lives under it.
    '.rustup/settings.toml': 'default_toolchain = "stable-x86_64-unknown-linux-gnu"\nversion = "12"\n',
    '.cargo/bin/cargo':
      '#!/bin/bash\nset -e\n[ -n "$RUSTUP_HOME" ] || { echo "rustup: RUSTUP_HOME is not set" >&2; exit 127; }\n' +
      't=$(sed -n \'s/^default_toolchain = "\\(.*\\)"$/\\1/p\' "$RUSTUP_HOME/settings.toml")\n' +
      'exec "$RUSTUP_HOME/toolchains/$t/bin/$(basename "$0")" "$@"\n',
    '.rustup/toolchains/stable-x86_64-unknown-linux-gnu/bin/cargo': [
      '#!/bin/bash',
      '[ "$1" = test ] || { echo "this cargo only tests" >&2; exit 2; }',
      '[ -f Cargo.toml ] || { echo "error: could not find Cargo.toml" >&2; exit 101; }',
      'pass=0; fail=0',
      'for t in tests/*.sh; do',
      '  name=$(basename "$t" .sh)',
      '  if bash "$t"; then echo "test $name ... ok"; pass=$((pass+1)); else echo "test $name ... FAILED"; fail=$((fail+1)); fi',
      'done',
      'if [ $fail -eq 0 ]; then echo "test result: ok. $pass passed; 0 failed"; else echo "test result: FAILED. $pass passed; $fail failed"; exit 101; fi',
      '',
    ].join('\n'),
    // Credentials beside them.
    '.ssh/id_ed25519': `${HOME_SECRETS.ssh}\n`,
    '.npmrc': `//registry.npmjs.org/:_authToken=${HOME_SECRETS.npmrc}\n`,
    '.cargo/credentials.toml': `[registry]\ntoken = "${HOME_SECRETS.cargo}"\n`,
  });
  for (const file of ['.pyenv/shims/python', '.pyenv/versions/3.11.99/bin/python', '.cargo/bin/cargo', '.rustup/toolchains/stable-x86_64-unknown-linux-gnu/bin/cargo']) {
    chmodSync(join(home, file), 0o755);
  }
  // As a user's own would be: readable by others, except the credentials.
  chmodSync(home, 0o755);
  chmodSync(join(home, '.ssh'), 0o700);
  return { path: [join(home, '.cargo/bin'), join(home, '.pyenv/shims'), '/usr/local/bin', '/usr/bin', '/bin'].join(':') };
}
