import { lstatSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';

/** One version manager's root on this machine, as the user's environment names it (or its default under HOME). */
export interface ManagerRoot {
  /** pyenv, rustup, cargo, nvm, asdf, sdkman, volta, goenv. */
  name: string;
  /** Absolute; it may not exist (then it is reported as not found). */
  root: string;
  /** The variable that names it (PYENV_ROOT…); its shims read it to find the root. */
  variable: string;
  /**
   * What of the root the sandbox may see: null for all of it, else these subdirectories only
   * (cargo's home also keeps `credentials.toml`: only its `bin` is shown).
   */
  only: readonly string[] | null;
  /** Whether the sandbox gets `variable` pointing at the root (false for cargo: its home inside is a writable one). */
  passRoot: boolean;
}

/** The user's toolchain environment, read once here and handed down as values (see sandbox/toolchains.ts). */
export interface ToolchainEnv {
  home: string | null;
  /** The user's PATH, entry by entry, as given (only absolute entries). */
  path: string[];
  managers: ManagerRoot[];
  /** Version selections the shims honour, passed as they are (PYENV_VERSION, RUSTUP_TOOLCHAIN…). */
  selections: Record<string, string>;
}

interface ManagerSpec {
  name: string;
  variable: string;
  /** Under HOME when the variable is unset. */
  fallback: string;
  only?: readonly string[];
  passRoot?: boolean;
}

/** Where each manager keeps its toolchains: its variable, else its documented default under HOME. */
const MANAGERS: readonly ManagerSpec[] = [
  { name: 'pyenv', variable: 'PYENV_ROOT', fallback: '.pyenv' },
  { name: 'rustup', variable: 'RUSTUP_HOME', fallback: '.rustup' },
  { name: 'cargo', variable: 'CARGO_HOME', fallback: '.cargo', only: ['bin'], passRoot: false },
  { name: 'nvm', variable: 'NVM_DIR', fallback: '.nvm' },
  { name: 'asdf', variable: 'ASDF_DATA_DIR', fallback: '.asdf' },
  { name: 'sdkman', variable: 'SDKMAN_DIR', fallback: '.sdkman' },
  { name: 'volta', variable: 'VOLTA_HOME', fallback: '.volta' },
  { name: 'goenv', variable: 'GOENV_ROOT', fallback: '.goenv' },
];

/** Which version the user selected, where a shim would otherwise look in files the sandbox does not have. */
const SELECTIONS = ['PYENV_VERSION', 'RUSTUP_TOOLCHAIN', 'GOENV_VERSION', 'ASDF_DIR', 'RUSTUP_AUTO_INSTALL'];

/** The user's PATH, HOME and version managers' variables; nothing else of the environment. */
export function readToolchainEnv(env: Record<string, string | undefined>): ToolchainEnv {
  const home = env.HOME && isAbsolute(env.HOME) ? env.HOME : null;
  const path = (env.PATH ?? '').split(':').filter((entry) => isAbsolute(entry));
  const managers: ManagerRoot[] = [];
  for (const spec of MANAGERS) {
    const given = env[spec.variable]?.trim();
    const root = given && isAbsolute(given) ? given : home ? join(home, spec.fallback) : null;
    if (root) managers.push({ name: spec.name, root, variable: spec.variable, only: spec.only ?? null, passRoot: spec.passRoot ?? true });
  }
  const selections: Record<string, string> = home ? asdfGlobalVersions(home) : {};
  for (const name of SELECTIONS) {
    const value = env[name]?.trim();
    if (value) selections[name] = value;
  }
  return { home, path, managers, selections };
}

/**
 * asdf's global versions live in `~/.tool-versions`, which the sandbox does not see (its HOME is
 * its own): they go in as `ASDF_<TOOL>_VERSION`, which asdf's shims honour. A missing or odd file: none.
 */
function asdfGlobalVersions(home: string): Record<string, string> {
  let text: string;
  try {
    const path = join(home, '.tool-versions');
    if (!lstatSync(path).isFile() || lstatSync(path).size > 65_536) return {};
    text = readFileSync(path, 'utf8');
  } catch {
    return {};
  }
  const versions: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const [tool, version] = line.replace(/#.*/, '').trim().split(/\s+/);
    if (!tool || !version || !/^[A-Za-z0-9_-]{1,40}$/.test(tool) || !/^[A-Za-z0-9._:+-]{1,80}$/.test(version)) continue;
    versions[`ASDF_${tool.toUpperCase().replace(/-/g, '_')}_VERSION`] = version;
  }
  return versions;
}
