import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startGitHttpServer } from '../test/support/git-http-server.js';

/** The bench's git remote as the app sees it: its URLs, and a way to stop it. */
export interface BenchGitServer {
  url(repoPath: string): string;
  close(): Promise<void>;
}

/**
 * GitHub's git remote (test/support/git-http-server.ts) in a process of its own: it starts a
 * `git http-backend` per request, and from the app's process every such fork stalled the event
 * loop that answers webhooks (the whole process is copied), which GitHub's own servers never do.
 * The child's entry is bench/git-server-child.ts; it stops when asked or when its parent goes. Run
 * from TypeScript sources (the bench's own tests) there is no such script: it serves in-process.
 */
export function startBenchGitServer(o: { root: string; token: string }): Promise<BenchGitServer> {
  const entry = fileURLToPath(new URL('./git-server-child.js', import.meta.url));
  if (!existsSync(entry)) return startGitHttpServer(o);
  const child = fork(entry, [], { execArgv: [], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the bench's git server exited with ${code} before listening`)));
    child.once('message', (message) => {
      const base = String((message as { url: string }).url);
      resolve({
        url: (repoPath) => `${base}/${repoPath.replace(/^\/+/, '')}`,
        async close() {
          child.send('close');
          await exited;
        },
      });
    });
    child.send(o);
  });
}
