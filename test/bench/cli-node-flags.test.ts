import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { cliNodeFlags, inProcessFlagsWarning } from '../../bench/cli-node-flags.js';
import { TempDirs } from '../support/temp-dir.js';

const CLI = resolve('dist/src/cli/main.js');
const temp = new TempDirs();
afterEach(() => temp.cleanup());

describe('bench: the node flags a built CLI starts with', () => {
  it('reads them from the built CLI’s shebang, and none from an older build’s plain one', () => {
    expect(cliNodeFlags(CLI)).toEqual(['--v8-pool-size=1']);
    const old = join(temp.make('greenfix-old-cli-'), 'main.js');
    writeFileSync(old, '#!/usr/bin/env node\nimport "./compiled-cli.js";\n');
    expect(cliNodeFlags(old)).toEqual([]);
  });

  it('refuses a file that does not start node, naming it and its first line', () => {
    const other = join(temp.make('greenfix-not-cli-'), 'main.js');
    writeFileSync(other, '#!/bin/sh\necho hi\n');
    expect(() => cliNodeFlags(other)).toThrow(`${other}: its first line is not "#!/usr/bin/env [-S] node [flags]": #!/bin/sh`);
  });

  it('warns a bench whose own node lacks them, and only then', () => {
    expect(inProcessFlagsWarning(['--v8-pool-size=1'], CLI)).toBeNull();
    expect(inProcessFlagsWarning(['--experimental-vm-modules'], CLI)).toMatch(/^node was started without --v8-pool-size=1, which greenfix starts with .*npm run bench/);
  });
});
