import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { IN_ATTRIB, IN_CLOSE_WRITE, IN_CREATE, IN_DELETE, IN_DELETE_SELF, IN_ISDIR, IN_MODIFY, IN_MOVED_FROM, IN_MOVED_TO, interpretEvents, type WatchMaps } from '../../src/workspace/inotify-events.js';
import { InotifyFeed } from '../../src/workspace/inotify-feed.js';
import { TempDirs } from '../support/temp-dir.js';

const temp = new TempDirs();
afterEach(() => temp.cleanup());


const maps = (): WatchMaps => ({ dirs: new Map([[1, '.'], [2, 'src']]), files: new Map([[3, new Set(['src/a.js', 'lib/hard-link.js'])]]) });

describe('the feed report: which names may stand for another file now', () => {
  it('names nothing for content: a write seen by the file\'s watch or by its directory\'s', () => {
    const report = interpretEvents([
      { wd: 3, mask: IN_MODIFY, name: '' },
      { wd: 3, mask: IN_ATTRIB, name: '' },
      { wd: 2, mask: IN_CLOSE_WRITE, name: 'b.js' },
      { wd: 2, mask: IN_ATTRIB, name: 'c.js' },
    ], maps());
    expect(report).toEqual({ trusted: true, paths: new Set(['src/a.js', 'lib/hard-link.js', 'src/b.js', 'src/c.js']), dirs: new Set(), named: new Set() });
  });

  it('names every name a directory\'s event made, removed or moved, and every name of a file gone', () => {
    const report = interpretEvents([
      { wd: 2, mask: IN_CREATE, name: 'new.js' },
      { wd: 2, mask: IN_MODIFY, name: 'new.js' },
      { wd: 2, mask: IN_DELETE, name: 'old.js' },
      { wd: 2, mask: IN_MOVED_FROM, name: 'from.js' },
      { wd: 1, mask: IN_MOVED_TO, name: 'to.js' },
      { wd: 1, mask: IN_DELETE | IN_ISDIR, name: 'gone' },
      { wd: 1, mask: IN_CREATE | IN_ISDIR, name: 'made' },
      { wd: 3, mask: IN_DELETE_SELF, name: '' },
    ], maps());
    const named = ['src/new.js', 'src/old.js', 'src/from.js', 'to.js', 'gone', 'src/a.js', 'lib/hard-link.js'];
    expect(report).toEqual({ trusted: true, paths: new Set(named), dirs: new Set(['made']), named: new Set(named) });
  });
});

describe('the inotify feed after a restart', () => {
  it('keeps what happened while the walk ran for the next report (a name made behind the walk, a directory made in one already read)', async () => {
    // A helper that answers as native/inotify-feed.c would if both were made while it walked.
    const helper = join(temp.make(), 'fake-inotify-feed');
    writeFileSync(helper, `#!${process.execPath}
let input = Buffer.alloc(0);
const out = (text) => process.stdout.write(text + '\\0');
process.stdin.on('data', (chunk) => {
  input = Buffer.concat([input, chunk]);
  for (let end = input.indexOf(0); end >= 0; end = input.indexOf(0)) {
    const command = input.subarray(0, end).toString();
    input = input.subarray(end + 1);
    if (command === 'r.') ['D1 .', 'F2 a.js', 'E1 ${IN_CREATE} made-while-walking.js', 'E1 ${IN_CREATE | IN_ISDIR} dir-made-while-walking', 'R'].forEach(out);
    else if (command === 's') out('S');
    else if (command.startsWith('f') || command.startsWith('r')) out('R');
  }
});
`);
    chmodSync(helper, 0o755);
    const feed = new InotifyFeed({ root: temp.make(), helper });
    try {
      expect(await feed.restart([])).toEqual({ watching: true });
      expect(await feed.changes()).toEqual({ trusted: true, paths: new Set(['made-while-walking.js']), dirs: new Set(['dir-made-while-walking']), named: new Set(['made-while-walking.js']) });
    } finally {
      feed.close();
    }
  });
});
