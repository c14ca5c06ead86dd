import { detectCommands } from '../../src/workspace/detect-commands.js';
import { TempDirs } from '../support/temp-dir.js';
import { writeFiles } from '../support/make-repo.js';

const temp = new TempDirs();
afterEach(() => temp.cleanup());

function detect(files: Record<string, string>, overrides?: Parameters<typeof detectCommands>[1]) {
  const root = temp.make('gf-detect-');
  writeFiles(root, files);
  return detectCommands(root, overrides);
}

const pkg = (test?: string) => JSON.stringify({ name: 'x', scripts: test === undefined ? {} : { test } });

describe('detectCommands', () => {
  it('node: the test script, run by the package manager the lockfile names', () => {
    expect(detect({ 'package.json': pkg('jest'), 'package-lock.json': '{}' })).toEqual({ verify: 'npm test', setup: 'npm ci' });
    expect(detect({ 'package.json': pkg('jest'), 'npm-shrinkwrap.json': '{}' })).toEqual({ verify: 'npm test', setup: 'npm ci' });
    expect(detect({ 'package.json': pkg('jest') })).toEqual({ verify: 'npm test', setup: 'npm install' });
    expect(detect({ 'package.json': pkg('ava'), 'yarn.lock': '' })).toEqual({
      verify: 'yarn test',
      setup: 'yarn install --frozen-lockfile',
    });
    expect(detect({ 'package.json': pkg('vitest'), 'pnpm-lock.yaml': '' })).toEqual({
      verify: 'pnpm test',
      setup: 'pnpm install --frozen-lockfile',
    });
  });

  it("node: npm init's placeholder or no test script is no verify command", () => {
    expect(detect({ 'package.json': pkg('echo "Error: no test specified" && exit 1') }).verify).toBeNull();
    expect(detect({ 'package.json': pkg() })).toEqual({ verify: null, setup: 'npm install' });
  });

  it('a malformed package.json is no node project, not a crash', () => {
    expect(detect({ 'package.json': '{ "scripts": { "test": ', 'package-lock.json': '{}' })).toEqual({ verify: null, setup: null });
    expect(detect({ 'package.json': '[1, 2]', 'Makefile': 'test:\n\techo ok\n' })).toEqual({ verify: 'make test', setup: null });
    expect(detect({ 'package.json': '{"scripts": "nope"}' })).toEqual({ verify: null, setup: null });
  });

  it('python: every pytest marker, and requirements.txt for setup', () => {
    const pytest = 'python3 -m pytest -q';
    expect(detect({ 'pytest.ini': '[pytest]\n' }).verify).toBe(pytest);
    expect(detect({ 'pyproject.toml': '[project]\nname="x"\n\n[tool.pytest.ini_options]\naddopts="-q"\n' }).verify).toBe(pytest);
    expect(detect({ 'setup.cfg': '[metadata]\nname=x\n[tool:pytest]\n' }).verify).toBe(pytest);
    expect(detect({ 'tox.ini': '[tox]\n[pytest]\n' }).verify).toBe(pytest);
    expect(detect({ 'tests/unit/test_math.py': 'def test_x(): pass\n' }).verify).toBe(pytest);
    expect(detect({ 'pkg/math_test.py': '' }).verify).toBe(pytest);
    expect(detect({ 'requirements.txt': 'requests\n', 'test_app.py': '' })).toEqual({
      verify: pytest,
      setup: 'python3 -m pip install -r requirements.txt',
    });
  });

  it('python: config without a pytest section and test files only in skipped dirs are not pytest', () => {
    expect(detect({ 'pyproject.toml': '[tool.black]\n', 'setup.cfg': '[flake8]\n', 'tox.ini': '[tox]\n' }).verify).toBeNull();
    expect(detect({ '.venv/lib/test_x.py': '', 'node_modules/a/test_y.py': '' }).verify).toBeNull();
  });

  it('go, cargo and make', () => {
    expect(detect({ 'go.mod': 'module x\n' })).toEqual({ verify: 'go test ./...', setup: null });
    expect(detect({ 'Cargo.toml': '[package]\n' })).toEqual({ verify: 'cargo test', setup: null });
    expect(detect({ Makefile: 'build:\n\tcc x.c\n\ntest: build\n\t./run\n' }).verify).toBe('make test');
    expect(detect({ Makefile: 'test := 1\ntests:\n\techo\n' }).verify).toBeNull();
    expect(detect({ 'README.md': '# nothing to run\n' })).toEqual({ verify: null, setup: null });
  });

  it('overrides win, and null is an explicit "none"', () => {
    const files = { 'package.json': pkg('jest'), 'package-lock.json': '{}' };
    expect(detect(files, { verify: 'npm run test:unit' })).toEqual({ verify: 'npm run test:unit', setup: 'npm ci' });
    expect(detect(files, { setup: null })).toEqual({ verify: 'npm test', setup: null });
    expect(detect({}, { verify: 'make check', setup: './bootstrap' })).toEqual({ verify: 'make check', setup: './bootstrap' });
  });
});
