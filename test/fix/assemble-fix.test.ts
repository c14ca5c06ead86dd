import { join } from 'node:path';
import nock from 'nock';
import { writeFileSync } from 'node:fs';
import { noFixWrappers } from '../../src/fix/fix-wrappers.js';
import { pushBranch } from '../../src/workspace/push-branch.js';
import { localFixInput } from '../../src/cli/local-session.js';
import { parseFixOptions } from '../../src/cli/fix-options.js';
import { locateRun, openLocalState } from '../../src/cli/local-run.js';
import { defaultRepoConfig, RepoConfigSchema, setupCommand } from '../../src/config/repo-config.js';
import { assembleFix, type AssembledFix } from '../../src/fix/assemble-fix.js';
import { fixCommands } from '../../src/fix/fix-input.js';
import { newJobReport } from '../../src/github/report.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import type { Job } from '../../src/queue/types.js';
import { jobFiles, openJobState } from '../../src/job/files.js';
import { jobFixInput } from '../../src/job/fix.js';
import { JobReporter } from '../../src/job/reporter.js';
import { planTarget } from '../../src/job/target.js';
import { createUnsandboxed } from '../../src/sandbox/unsandboxed.js';
import { GitWorkspace } from '../../src/workspace/git-workspace.js';
import { fixture as octokitFixture } from '../github/octokit-fixture.js';
import { makeRepo } from '../support/make-repo.js';
import { TempDirs } from '../support/temp-dir.js';

const temp = new TempDirs();
afterEach(() => temp.cleanup());

const REQUEST = {
  kind: 'issue' as const,
  installationId: 1,
  repo: { id: 7, owner: 'octo', name: 'widgets', cloneUrl: 'http://127.0.0.1:1/octo/widgets.git', defaultBranch: 'main' },
  number: 3,
  target: 'issue' as const,
  title: 'sum is wrong',
  body: '',
  sender: 'alice',
};

function job(): Job {
  return {
    id: 'job-1', deliveryId: 'd-1', dedupeKey: null, subject: '7#3', repoKey: '7', request: REQUEST, state: 'running',
    attempts: 1, maxAttempts: 3, runAfter: 0, createdAt: 0, updatedAt: 0, cancelReason: null, error: null, result: null, authorize: null,
  };
}

/** What the agent and runFix get, minus what is the caller's by design (the event listener, publisher, journal opener, state, signal). */
function comparable(fix: AssembledFix, input: { tests?: { where: string } }) {
  const { publisher: _pub, state: _state, openJournal: _o, signal: _sig, agent, setup, ...rest } = fix;
  // How the base is named is the caller's ("main" in a job, "main @ 1a2b3c4" in the CLI); the rest of the baseline policy is shared.
  const { where: _w, ...testsPolicy } = input.tests ?? { where: '' };
  const { signal: _ss, ...setupRest } = setup;
  const { onEvent: _e, tools, toolContext, config, ...agentRest } = agent;
  const { signal: _s, ...context } = toolContext;
  const { jobId: _j, ...recorded } = config ?? {};
  return { ...rest, setup: setupRest, tests: testsPolicy, agent: { ...agentRest, tools: tools.map((t) => t.name), toolContext: context, config: recorded } };
}

async function bothAssemblies(files: Record<string, string>, repoConfig: unknown, argv: string[]) {
  const root = makeRepo(temp.make(), files);
  const workspace = await GitWorkspace.open({ root, baseCommit: 'HEAD', stateDir: temp.make('gf-state-') });
  const model = new ScriptedModel([]);
  const sandbox = await createUnsandboxed().forJob({ workspace: root });
  const now = () => 1_700_000_000_000;
  const workdir = temp.make('gf-workdir-');

  // The CLI's side, as fix-command.ts builds it.
  const options = parseFixOptions(['--repo', root, '--task', 'sum is wrong', ...argv], root);
  if (options === 'help') throw new Error('help');
  const run = await locateRun({ GREENFIX_WORKDIR: workdir }, options.repo, options.task);
  const cliCommands = fixCommands(root, undefined, { verify: options.verify, setup: options.setup });
  const cliInput = { ...localFixInput({ options, run, state: openLocalState(run), workspace, commands: cliCommands, model, sandbox, env: {}, stderr: () => undefined }), now };
  const cli = assembleFix(cliInput);

  // The job's side, as job/fix.ts builds it.
  const config = RepoConfigSchema.parse(repoConfig ?? {});
  const files_ = jobFiles(workdir, 'job-1');
  const plan = planTarget(REQUEST, config, null);
  if (plan.type !== 'target') throw new Error('no target');
  const { host } = octokitFixture();
  const reporter = new JobReporter({ host, report: newJobReport('job-1', 'issue', 3, config.max_steps), now, minIntervalMs: 0, onError: () => undefined });
  const env = {
    workdir, sandbox: createUnsandboxed(), model, hostFor: async () => host, readConfig: async () => null,
    queue: { listBySubject: async () => [], reserve: async () => { throw new Error('no caps in this test'); }, recordPullRequest: async () => true, pullRequestsOpenedSince: async () => [] }, push: pushBranch, wrap: noFixWrappers, now, log: { info: () => undefined, warn: () => undefined, error: () => undefined }, progressIntervalMs: 0,
  };
  const jobCommands = fixCommands(root, undefined, { verify: config.verify, setup: setupCommand(config) });
  const input = { env, job: job(), config, host, files: files_, state: openJobState(files_), target: plan.target, reporter, signal: new AbortController().signal };
  const appInput = jobFixInput(input, { workspace, commands: jobCommands, gitDir: '/unused/mirror.git', sandbox, task: 'sum is wrong' });
  const app = assembleFix(appInput);
  return { cli, app, cliInput, appInput, cliCommands, jobCommands, root };
}

describe('one assembly of a fix', () => {
  it('the CLI with no options and a job with no repo config get the same agent deps, detected commands included', async () => {
    const { cli, app, cliInput, appInput, cliCommands, jobCommands } = await bothAssemblies(
      { 'package.json': JSON.stringify({ name: 'w', scripts: { test: 'node --test' } }), 'package-lock.json': '{}', 'index.js': '' },
      undefined,
      [],
    );
    expect(jobCommands).toEqual({ setup: 'npm ci', verify: 'npm test' });
    expect(cliCommands).toEqual(jobCommands);
    expect(comparable(app, appInput)).toEqual(comparable(cli, cliInput));
    expect(app.agent.budget).toEqual({ maxSteps: 100, maxTokens: 2_000_000, maxWallMs: 30 * 60_000 });
    expect(app.agent.toolContext.verifyCommand).toBe('npm test');
    // What differs is only what the caller supplies: the job records its id and can be cancelled.
    expect(app.agent.config).toMatchObject({ jobId: 'job-1' });
    expect(app.agent.toolContext.signal).toBeInstanceOf(AbortSignal);
  });

  it('the same with the same overrides: repo config keys and CLI flags set the same things', async () => {
    const { cli, app, cliInput, appInput } = await bothAssemblies(
      { 'Makefile': 'test:\n\ttrue\n', 'AGENTS.md': 'Be brief.\n' },
      { verify: 'make check', setup: 'make deps', max_steps: 12, max_tokens: 50_000, timeout_minutes: 5 },
      ['--verify', 'make check', '--setup', 'make deps', '--max-steps', '12', '--max-tokens', '50000', '--timeout-minutes', '5'],
    );
    expect(comparable(app, appInput)).toEqual(comparable(cli, cliInput));
    expect(app.agent.config).toMatchObject({ verify: 'make check', setup: 'make deps', maxSteps: 12 });
    expect(app.agentsMd).toBe('Be brief.\n');
  });

  it('a repo config key overrides detection only when present, the other key is still detected', async () => {
    const root = makeRepo(temp.make(), { 'package.json': JSON.stringify({ scripts: { test: 'jest' } }), 'yarn.lock': '' });
    expect(fixCommands(root, undefined, { verify: undefined, setup: undefined })).toEqual({ verify: 'yarn test', setup: 'yarn install --frozen-lockfile' });
    expect(fixCommands(root, undefined, { verify: 'yarn jest', setup: undefined })).toEqual({ verify: 'yarn jest', setup: 'yarn install --frozen-lockfile' });
    expect(defaultRepoConfig().verify).toBeUndefined();
    // A resumed fix keeps the commands it started with, even if the repository changed since.
    writeFileSync(join(root, 'package.json'), '{}');
    const saved = { task: 't', baseCommit: 'a'.repeat(40), createdAt: 0, commands: { verify: 'npm test', setup: null } };
    expect(fixCommands(root, saved, { verify: undefined, setup: undefined })).toEqual({ verify: 'npm test', setup: null });
  });
});

// nock (loaded by what this file imports) patches node:http, which outlives this file's module registry.
afterAll(() => nock.restore());
