import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import type { ScriptTurn } from '../../src/model/scripted-script.js';
import type { ChatModel, ChatRequest } from '../../src/model/types.js';
import { BUGGY_REPO } from '../cli/helpers.js';
import { git } from '../support/git.js';
import type { FakeCheckRun } from '../support/fake-github.js';
import { examplePayload } from '../triggers/payloads.js';
import { INSTALLATION, startHarness, turn, type Harness } from './harness.js';

/**
 * Pull requests as GitHub has them, for the app's end-to-end tests: a commit in the bare remote
 * under `refs/heads/<head>` (same repository) and `refs/pull/<n>/head` (always), the PR in the fake
 * GitHub with the same head sha, check runs on a sha, and the webhooks that talk about them.
 */

export const REPO_ID = 1296269;
const FORK_REPO_ID = 777;

export interface PullSpec {
  number: number;
  head: string;
  title?: string;
  author?: string;
  /** `owner/name` of a fork; default: the harness's repository. */
  fork?: string;
  /** Files changed by the PR's one commit on top of main. */
  files?: Record<string, string>;
}

export interface OpenedPull {
  number: number;
  head: string;
  headSha: string;
  fork: boolean;
}

/** The model's fix for BUGGY_REPO: edit, verify, finish. */
export const FIX_SCRIPT: ScriptTurn[] = [
  turn(['edit_file', { path: 'lib.sh', old: '$1 - $2', new: '$1 + $2' }]),
  turn(['run_tests', {}]),
  turn(['finish', { summary: 'add() subtracted; it adds now.' }]),
];

/** The scripted model, keeping every request it receives: what the agent showed the model. */
export function recordingModel(script: ScriptTurn[]): { model: ChatModel; requests: ChatRequest[] } {
  const scripted = new ScriptedModel(script);
  const requests: ChatRequest[] = [];
  const model: ChatModel = {
    name: scripted.name,
    complete: (request) => {
      requests.push(request);
      return scripted.complete(request);
    },
  };
  return { model, requests };
}

/** The harness on BUGGY_REPO with `.github/greenfix.yml` = `config`, a recording model and the fake following the remote. */
export async function startRecorded(script: ScriptTurn[], config: string): Promise<{ h: Harness; requests: ChatRequest[] }> {
  const { model, requests } = recordingModel(script);
  const h = await startHarness({ files: BUGGY_REPO, script: [], model, state: { config } });
  wireRemote(h);
  return { h, requests };
}

/** Everything the model was shown (all messages of all requests), as one text. */
export function shownToModel(requests: ChatRequest[]): string {
  return requests.flatMap((r) => r.messages.map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))).join('\n');
}

/** The remote follows its refs in the fake (PR head shas, check runs by branch name). */
export function wireRemote(h: Harness): void {
  h.state.resolveRef = (ref) => remoteSha(h, ref);
}

export function remoteSha(h: Harness, ref: string): string | null {
  try {
    return git(h.remote, 'rev-parse', '--verify', '--quiet', `${ref}^{commit}`);
  } catch {
    return null;
  }
}

/** Commits `files` on top of `parent` in the remote and points `refs` at it; returns the sha. */
export function commitInRemote(h: Harness, parent: string, files: Record<string, string>, refs: string[]): string {
  const work = join(h.dir, `scratch-${Date.now()}-${Math.random().toString(36).slice(2)}`);
  git(h.dir, 'clone', '--quiet', '--no-checkout', h.remote, work);
  git(work, 'checkout', '--quiet', '--detach', parent);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(work, path)), { recursive: true });
    writeFileSync(join(work, path), content);
  }
  git(work, 'add', '-A');
  git(work, '-c', 'user.name=Human', '-c', 'user.email=human@example.com', 'commit', '--quiet', '--allow-empty', '-m', `change ${Object.keys(files).join(', ') || 'nothing'}`);
  const sha = git(work, 'rev-parse', 'HEAD');
  git(work, 'push', '--quiet', '--force', 'origin', ...refs.map((ref) => `${sha}:${ref}`));
  rmSync(work, { recursive: true, force: true });
  return sha;
}

/** A PR whose head is one commit on top of main, in the remote and in the fake GitHub. */
export function openPullRequest(h: Harness, spec: PullSpec): OpenedPull {
  const main = remoteSha(h, 'refs/heads/main');
  if (!main) throw new Error('the remote has no main');
  const fork = spec.fork !== undefined;
  const refs = [`refs/pull/${spec.number}/head`, ...(fork ? [] : [`refs/heads/${spec.head}`])];
  const headSha = commitInRemote(h, main, spec.files ?? { [`notes-${spec.number}.md`]: 'work in progress\n' }, refs);
  h.state.pulls.push({
    number: spec.number,
    head: spec.head,
    headSha,
    base: 'main',
    title: spec.title ?? `Pull request ${spec.number}`,
    body: 'Please review.',
    draft: false,
    state: 'open',
    author: spec.author ?? 'octocat',
    headRepo: spec.fork ?? `${h.state.owner}/${h.state.repo}`,
  });
  return { number: spec.number, head: spec.head, headSha, fork };
}

/** Someone pushes another commit to the PR's branch (and GitHub moves `refs/pull/<n>/head`). */
export function pushToPullRequest(h: Harness, pr: OpenedPull, files: Record<string, string>): OpenedPull {
  const headSha = commitInRemote(h, pr.headSha, files, [`refs/pull/${pr.number}/head`, `refs/heads/${pr.head}`]);
  return { ...pr, headSha };
}

export interface CheckSpec {
  headSha: string;
  name: string;
  conclusion: 'success' | 'failure' | 'timed_out';
  /** A GitHub Actions job: its log is served from `state.jobLogs[id]`. */
  log?: string;
  summary?: string;
}

/** A completed check run of another app (GitHub Actions by default) on a commit. */
export function addCheckRun(h: Harness, spec: CheckSpec): FakeCheckRun {
  const id = h.state.nextId++;
  const run: FakeCheckRun = {
    id,
    name: spec.name,
    head_sha: spec.headSha,
    external_id: '',
    status: 'completed',
    conclusion: spec.conclusion,
    output: { title: `${spec.name} ${spec.conclusion}`, summary: spec.summary ?? '' },
    app: { id: 15368, slug: 'github-actions' },
  };
  h.state.checkRuns.push(run);
  if (spec.log !== undefined) h.state.jobLogs[id] = spec.log;
  return run;
}

/** `workflow_run.completed` (failure) for the PR's head, as GitHub Actions sends it. */
export function workflowRunFailed(h: Harness, pr: OpenedPull, runId = 30433642): Record<string, unknown> {
  const headRepoId = pr.fork ? FORK_REPO_ID : REPO_ID;
  const ref = { number: pr.number, head: { ref: pr.head, sha: pr.headSha, repo: { id: headRepoId } }, base: { ref: 'main', sha: '0'.repeat(40), repo: { id: REPO_ID } } };
  return examplePayload('workflow_run', 'completed', {
    installation: { id: INSTALLATION },
    repository: h.repository,
    sender: { login: 'octocat', type: 'User', id: 1 },
    workflow_run: {
      id: runId,
      name: 'CI',
      head_sha: pr.headSha,
      head_branch: pr.head,
      status: 'completed',
      conclusion: 'failure',
      head_repository: { id: headRepoId },
      pull_requests: [ref],
    },
  });
}

/** `issue_comment.created` on a pull request, by octocat. */
export function pullRequestComment(h: Harness, number: number, body: string, commentId = 9001): Record<string, unknown> {
  return examplePayload('issue_comment', 'created', {
    installation: { id: INSTALLATION },
    repository: h.repository,
    sender: { login: 'octocat', type: 'User', id: 1 },
    issue: { number, title: `Pull request ${number}`, body: 'Please review.', state: 'open', pull_request: { url: `https://api.github.com/repos/octo-org/widgets/pulls/${number}` } },
    comment: { id: commentId, body, user: { login: 'octocat', type: 'User', id: 1 } },
  });
}

/** The status comments greenfix wrote on an issue or PR. */
export function statusComments(h: Harness, number: number): string[] {
  return h.state.comments.filter((c) => c.issue === number && c.body.includes('greenfix:status')).map((c) => c.body);
}
