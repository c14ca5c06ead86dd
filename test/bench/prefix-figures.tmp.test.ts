import { benchPrefixCache } from '../../bench/prefix-cache.js';
import { CLI_CONTEXT } from '../../bench/scripted-run.js';
import { createSandbox } from '../../src/sandbox/create-sandbox.js';

it('figures', async () => {
  const sandbox = await createSandbox({ env: { PATH: process.env.PATH }, log: () => undefined });
  const r = await benchPrefixCache({ sandbox, steps: 30, files: 40, budgets: [CLI_CONTEXT, { maxTokens: 60_000, keepLastToolResults: 6 }] });
  console.log(JSON.stringify(r));
}, 600_000);
