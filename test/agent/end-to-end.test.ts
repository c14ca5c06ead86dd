import * as fs from 'node:fs';
import * as path from 'node:path';
import { openJournal, readJournal } from '../../src/agent/journal.js';
import { runAgent } from '../../src/agent/loop.js';
import { systemPrompt } from '../../src/agent/prompt.js';
import { createTools } from '../../src/agent/tools/registry.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import type { ScriptTurn } from '../../src/model/scripted-script.js';
import { createUnsandboxed } from '../../src/sandbox/unsandboxed.js';
import { GitWorkspace } from '../../src/workspace/git-workspace.js';
import { tempFixture, type TempFixture } from './helpers/deps.js';
import { git } from '../support/git.js';


/**
 * The whole engine minus the network: real git repo and GitWorkspace, the real eight tools through
 * the registry, the real ScriptedModel; commands run unsandboxed (test/sandbox covers bwrap).
 */
describe('runAgent end to end', () => {
  let tmp: TempFixture;
  let root: string;
  beforeEach(() => {
    tmp = tempFixture();
    root = path.join(tmp.dir, 'repo');
    fs.mkdirSync(root);
    git(root, 'init', '-q', '-b', 'main');
    fs.writeFileSync(path.join(root, 'sum.sh'), 'sum() { echo $(( $1 - $2 )); }\n');
    fs.writeFileSync(path.join(root, 'test.sh'), '. ./sum.sh\ntest "$(sum 1 2)" = 3 || { echo "expected 3, got $(sum 1 2)"; exit 1; }\n');
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'base');
  });
  afterEach(() => tmp.cleanup());

  async function run(turns: ScriptTurn[]) {
    const workspace = await GitWorkspace.open({ root, baseCommit: 'HEAD', stateDir: path.join(tmp.dir, 'state') });
    const journal = openJournal(path.join(tmp.dir, 'journal.jsonl'));
    tmp.defer(() => journal.close());
    const verifyCommand = 'bash test.sh';
    const outcome = await runAgent(
      {
        model: new ScriptedModel(turns),
        tools: createTools(),
        toolContext: { workspace, sandbox: createUnsandboxed(), verifyCommand, fileOwner: null, limits: { outputChars: 8_000, runTimeoutSec: 30, runTimeoutMaxSec: 60, testTimeoutSec: 60 } },
        journal,
        budget: { maxSteps: 20, maxTokens: 1_000_000, maxWallMs: 120_000 },
        context: { maxTokens: 30_000, keepLastToolResults: 6 },
        now: Date.now,
      },
      { task: 'sum(1, 2) should be 3', systemPrompt: systemPrompt(null, verifyCommand) },
    );
    return { outcome, workspace, records: readJournal(journal.path) };
  }

  it('fixes the bug: red tests, refused finish, edit, green tests, accepted finish on that exact tree', async () => {
    const { outcome, workspace, records } = await run([
      { tool_calls: [{ name: 'run_tests', arguments: {} }] },
      { tool_calls: [{ name: 'read_file', arguments: { path: 'sum.sh' } }, { name: 'finish', arguments: { summary: 'premature' } }] },
      { tool_calls: [{ name: 'edit_file', arguments: { path: 'sum.sh', old: '$1 - $2', new: '$1 + $2' } }] },
      { tool_calls: [{ name: 'run_tests', arguments: {} }] },
      { tool_calls: [{ name: 'finish', arguments: { summary: 'sum adds now' } }] },
    ]);
    expect(outcome).toMatchObject({ status: 'verified', summary: 'sum adds now', steps: 5 });
    expect(outcome.verified?.tree).toBe(await workspace.treeHash());
    expect(fs.readFileSync(path.join(root, 'sum.sh'), 'utf8')).toContain('$1 + $2');
    const results = records.flatMap((r) => (r.type === 'tool_end' ? [[r.name, r.result.ok]] : []));
    expect(results).toEqual([['run_tests', false], ['read_file', true], ['finish', false], ['edit_file', true], ['run_tests', true], ['finish', true]]);
  });

  it('gives up honestly when the script runs out', async () => {
    const { outcome } = await run([{ tool_calls: [{ name: 'run_tests', arguments: {} }] }]);
    expect(outcome).toMatchObject({ status: 'gave_up', verified: null, steps: 2 });
  });
});
