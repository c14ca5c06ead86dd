import { sandboxIdentity } from '../../src/sandbox/sandbox-identity.js';

const passwd = 'root:x:0:0:root:/root:/bin/bash\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n';
const group = 'root:x:0:\nnogroup:x:65534:\n';

describe('sandboxIdentity', () => {
  it('adds a greenfix entry for a uid and gid the host does not name, keeping every host line', () => {
    const files = sandboxIdentity({ uid: 2_147_000_001, gid: 2_147_000_001 }, '/tmp/home', { passwd, group });
    expect(files.map((f) => [f.path, f.data.toString()])).toEqual([
      ['/etc/passwd', `${passwd}greenfix:x:2147000001:2147000001:greenfix sandbox:/tmp/home:/usr/sbin/nologin\n`],
      ['/etc/group', `${group}greenfix:x:2147000001:\n`],
    ]);
  });

  it('replaces nothing for a uid the host already names (nobody), or a file the sandbox does not see', () => {
    expect(sandboxIdentity({ uid: 65534, gid: 65534 }, '/tmp/home', { passwd, group })).toEqual([]);
    expect(sandboxIdentity({ uid: 7, gid: 7 }, '/tmp/home', { passwd: null, group: null })).toEqual([]);
  });

  it('matches the uid field exactly, not a prefix or another field', () => {
    const tricky = 'a:x:10:7:user 7:/home/7:/bin/sh';
    const [file] = sandboxIdentity({ uid: 7, gid: 0 }, '/h', { passwd: tricky, group: null });
    expect(file?.data.toString()).toBe(`${tricky}\ngreenfix:x:7:0:greenfix sandbox:/h:/usr/sbin/nologin\n`);
  });
});
