#!/usr/bin/env -S node --v8-pool-size=1
// The shebang's flags are greenfix's node flags wherever it starts (`npm start`, the Dockerfile's
// CMD and the benches say the same; test/app/manifest.test.ts keeps them in step). One V8 helper
// thread instead of Node's four: they run at nice 0 beside the thread that answers webhooks, and on
// a two-core machine four of them took its core (docs/decisions.md, "The receiver under load").
import { loadCli } from './compiled-cli.js';
import { localWorkdir } from './local-workdir.js';

const argv = process.argv.slice(2);
const { runCli } = await loadCli({ command: argv[0], workdir: localWorkdir(process.env) });
process.exitCode = await runCli(argv, {
  env: process.env,
  cwd: process.cwd(),
  stdout: (line) => process.stdout.write(`${line}\n`),
  stderr: (line) => process.stderr.write(`${line}\n`),
  terminal: {
    input: process.stdin,
    output: process.stdout,
    onSignal: (handler) => {
      process.on('SIGINT', handler);
      return () => process.off('SIGINT', handler);
    },
  },
});

// A stopped server has closed what it owns, but a library may keep the event loop alive (Probot's
// throttling Redis client, which it never closes): end the process once greenfix is done.
if (argv[0] === 'serve' || argv[0] === 'worker' || argv[0] === 'chat' || argv[0] === undefined) process.exit();
