import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { workdirProblem } from '../../src/cli/workdir-check.js';
import { SANDBOX_OWNER } from '../../src/sandbox/ownership.js';
import { cleanup, tempDir } from '../support/temp-dir.js';

const asRoot = process.getuid?.() === 0;

describe('the startup workdir check', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir('greenfix-workdir-');
  });
  afterEach(() => cleanup(dir));

  (asRoot ? it : it.skip)('refuses a workdir under a 0700 directory in one sentence naming it and the fix', () => {
    const home = join(dir, 'root-home');
    mkdirSync(home, { mode: 0o700 });
    chmodSync(home, 0o700);
    const problem = workdirProblem(join(home, 'app', '.greenfix'), SANDBOX_OWNER);
    expect(problem).toBe(
      `the workdir ${join(home, 'app', '.greenfix')} is not reachable by the sandbox user (uid 65534) because ${home} (mode 0700) has no o+x: ` +
        `run \`chmod o+x ${home}\` (others may then pass through it, not list it) or set GREENFIX_WORKDIR to a directory whose every parent has o+x, such as /var/lib/greenfix`,
    );
    expect(problem?.split(/[.!?]\s/)).toHaveLength(1);
  });

  it('accepts a reachable workdir, creating it 0711, and fixes a 0700 workdir that is its own', () => {
    const fresh = join(dir, 'a', 'work');
    expect(workdirProblem(fresh, SANDBOX_OWNER)).toBeNull();
    expect(statSync(fresh).mode & 0o777).toBe(0o711);
    const locked = join(dir, 'locked-work');
    mkdirSync(locked);
    chmodSync(locked, 0o700);
    expect(workdirProblem(locked, SANDBOX_OWNER)).toBeNull();
    expect(statSync(locked).mode & 0o777).toBe(0o711);
  });

  it('has nothing to check when commands run as the current user (not root)', () => {
    const home = join(dir, 'home');
    mkdirSync(home, { mode: 0o700 });
    expect(workdirProblem(join(home, 'work'), null)).toBeNull();
  });
});
