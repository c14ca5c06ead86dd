import { chmodSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { readToolchainEnv } from '../../src/config/toolchain-env.js';
import { commandWords } from '../../src/sandbox/command-words.js';
import { planToolchains, type ToolchainRequest } from '../../src/sandbox/toolchains.js';
import { cleanup, tempDir } from '../support/temp-dir.js';
import { makeToolchainHome } from '../support/toolchain-home.js';

function tool(path: string, body = '#!/bin/sh\nexit 0\n'): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, body);
  chmodSync(path, 0o755);
}

describe('planToolchains', () => {
  let dir: string;
  let home: string;
  const plan = (commands: string[], path: string, extra: Partial<ToolchainRequest> = {}) =>
    planToolchains({ ...readToolchainEnv({ HOME: home, PATH: path }), commands, appDirs: [join(dir, 'app')], dataDirs: [join(dir, 'work')], runAs: null, ...extra });

  beforeEach(() => {
    dir = tempDir('gf-toolchains-');
    home = join(dir, 'home');
    makeToolchainHome(home);
  });
  afterEach(() => cleanup(dir));

  it('shows a pyenv root and passes PYENV_ROOT; the PATH inside keeps the user’s order, then the system’s', () => {
    const p = plan(['python -m minitest'], `${home}/.pyenv/shims:/usr/bin:/bin`);
    expect(p.readOnlyPaths).toEqual([`${home}/.pyenv`]);
    expect(p.env).toEqual({ PYENV_ROOT: `${home}/.pyenv` });
    expect(p.path.split(':').slice(0, 3)).toEqual([`${home}/.pyenv/shims`, '/usr/bin', '/bin']);
    expect(p.path).toContain('/usr/local/bin');
  });

  it('shows only cargo’s bin (its home keeps credentials.toml) and, for its proxies, RUSTUP_HOME', () => {
    const p = plan(['cargo test'], `${home}/.cargo/bin:/usr/bin`);
    expect(p.readOnlyPaths).toEqual([`${home}/.cargo/bin`, `${home}/.rustup`]);
    expect(p.env).toEqual({ RUSTUP_HOME: `${home}/.rustup` });
  });

  it('refuses a PATH entry that is the home, a credential location, or lies in greenfix’s own directory', () => {
    tool(join(home, 'mytool'));
    tool(join(home, '.config/gh/gh-helper'));
    tool(join(dir, 'app/tools/bin/apptool'));
    const p = plan(['mytool && gh-helper && apptool'], `${home}:${home}/.config/gh:${dir}/app/tools/bin:/usr/bin`);
    expect(p.readOnlyPaths).toEqual([]);
    expect(p.refused.map((r) => [r.path, r.why])).toEqual([
      [home, 'it is or holds a credential location (' + `${home}/.ssh)`],
      [`${home}/.config/gh`, `it is or holds a credential location (${home}/.config/gh)`],
      [`${dir}/app/tools`, `it lies inside greenfix's own directory ${dir}/app`],
      [`${dir}/app/tools/bin`, `it lies inside greenfix's own directory ${dir}/app`],
    ]);
  });

  it('refuses a PATH entry that would cover the sandbox’s own /tmp, or that lies in greenfix’s data', () => {
    tool(join(dir, 'work/runs/x/bin/planted'));
    const inTmp = `${dir}-tool`;
    tool(inTmp);
    try {
      const p = plan([`${basename(inTmp)} && planted`], `/tmp:${dir}/work/runs/x/bin:/usr/bin`);
      expect(p.readOnlyPaths).toEqual([]);
      expect(p.refused).toEqual([
        { path: '/tmp', why: 'it is a top-level directory of the system, or holds one' },
        { path: `${dir}/work/runs/x`, why: `it lies inside greenfix's own data ${dir}/work` },
        { path: `${dir}/work/runs/x/bin`, why: `it lies inside greenfix's own data ${dir}/work` },
      ]);
    } finally {
      rmSync(inTmp, { force: true });
    }
  });

  it('follows a script’s shebang to its interpreter and a symlink to its install prefix', () => {
    tool(join(dir, 'opt/node-v99/bin/node'));
    tool(join(home, '.local/bin/runner'), `#!${dir}/opt/py/bin/python3\n`);
    tool(join(dir, 'opt/py/bin/python3'));
    mkdirSync(join(dir, 'links'));
    symlinkSync(join(dir, 'opt/node-v99/bin/node'), join(dir, 'links/node'));
    const p = plan(['node x.js', 'runner'], `${dir}/links:${home}/.local/bin:/usr/bin`);
    expect(p.readOnlyPaths).toEqual([`${dir}/links`, `${dir}/opt/node-v99`, `${home}/.local/bin`, `${dir}/opt/py`]);
    // ~/.local holds keyrings: only its bin is shown.
    expect(p.refused).toEqual([{ path: `${home}/.local`, why: `it is or holds a credential location (${home}/.local/share/keyrings)` }]);
  });

  it('names a path the sandbox uid cannot pass, and the directory that stops it', () => {
    chmodSync(dir, 0o700);
    const p = plan(['python -V'], `${home}/.pyenv/shims`, { runAs: { uid: 65534, gid: 65534 } });
    expect(p.readOnlyPaths).toEqual([]);
    expect(p.refused[0]?.why).toBe(`the sandbox's uids cannot reach it: ${dir} has mode 0700 (chmod o+x ${dir} lets them pass without listing it)`);
  });

  it('reports a leading program found nowhere, not an argument', () => {
    expect(plan(['npm run build-all', 'FOO=1 nosuchtool --x && nosuch2'], '/usr/bin').notFound).toEqual(expect.arrayContaining(['nosuchtool', 'nosuch2']));
    expect(plan(['npm run build-all'], '/usr/bin').notFound).not.toContain('build-all');
  });
});

describe('readToolchainEnv', () => {
  let dir: string;
  beforeEach(() => (dir = tempDir('gf-toolchain-env-')));
  afterEach(() => cleanup(dir));

  it('finds each manager by its variable, else under HOME; passes asdf’s global versions, which live in the hidden home', () => {
    writeFileSync(join(dir, '.tool-versions'), 'python 3.12.1\nnodejs 20.11.0 # pinned\n$(evil) 1\n');
    const env = readToolchainEnv({ HOME: dir, PATH: `${dir}/.asdf/shims:relative:/usr/bin`, PYENV_ROOT: '/opt/pyenv', PYENV_VERSION: '3.11.7' });
    expect(env.path).toEqual([`${dir}/.asdf/shims`, '/usr/bin']);
    expect(env.managers.find((m) => m.name === 'pyenv')?.root).toBe('/opt/pyenv');
    expect(env.managers.find((m) => m.name === 'asdf')?.root).toBe(`${dir}/.asdf`);
    expect(env.managers.find((m) => m.name === 'cargo')).toMatchObject({ only: ['bin'], passRoot: false });
    expect(env.selections).toEqual({ ASDF_PYTHON_VERSION: '3.12.1', ASDF_NODEJS_VERSION: '20.11.0', PYENV_VERSION: '3.11.7' });
  });
});

describe('commandWords', () => {
  it('finds the programs of each simple command, past assignments and keywords', () => {
    expect(commandWords(['A=1 python -m pytest -q && cargo test; if true; then make; fi'])).toEqual([
      { word: 'python', leading: true },
      { word: 'pytest', leading: false },
      { word: 'cargo', leading: true },
      { word: 'test', leading: false },
      { word: 'make', leading: true },
    ]);
  });
});
