import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** "fixes #12", "closes #3", "(#45)", "issue #7": the first issue number a commit message names. */
const ISSUE_REF = /(?:^|[\s(])#(\d{1,7})\b/;

/**
 * A mined instance's task: the linked issue's title and body when the message names one and a
 * copy of it is here (`<issuesDir>/<n>.json` with `title` and `body`, as `gh issue view --json
 * title,body` writes it), else the commit message's subject and body.
 */
export function taskText(message: string, issuesDir: string | undefined): { text: string; source: string } {
  const number = ISSUE_REF.exec(message)?.[1];
  if (number && issuesDir) {
    const file = join(issuesDir, `${number}.json`);
    if (existsSync(file)) {
      try {
        const issue = JSON.parse(readFileSync(file, 'utf8')) as { title?: unknown; body?: unknown };
        if (typeof issue.title === 'string') return { text: `${issue.title}\n\n${typeof issue.body === 'string' ? issue.body : ''}`.trim(), source: `issue #${number}` };
      } catch {
        // an unreadable copy: the commit message serves
      }
    }
  }
  return { text: message.trim(), source: 'commit message' };
}
