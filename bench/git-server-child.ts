import { startGitHttpServer } from '../test/support/git-http-server.js';

/** Child-process entry of bench/git-server-process.ts: serves the remote until told to close, or until its parent is gone. */
process.once('message', (options: { root: string; token: string }) => {
  void startGitHttpServer(options).then((server) => {
    const stop = () => void server.close().then(() => process.exit(0));
    process.on('message', stop);
    process.once('disconnect', stop);
    process.send?.({ url: server.url('').replace(/\/$/, '') });
  });
});
