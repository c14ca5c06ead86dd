import { clipHeadTail } from '../util/clip.js';
import { call, GitHubError } from './errors.js';
import { failingPart } from './failing-part.js';
import type { HostDeps } from './host-deps.js';
import { downloadJobLog } from './job-log.js';
import { checkOutputText, type AnnotationLike } from './check-output-text.js';
import type { FailedCheck } from './types.js';

/** Caps that keep the CI-fix task readable: it goes into the model's context. */
export const FAILED_CHECK_LIMITS = { checks: 10, annotations: 50, outputChars: 6000, logChars: 12_000 } as const;

const FAILING = new Set(['failure', 'timed_out']);

async function latestRuns(deps: HostDeps, ref: string) {
  return call('list check runs', () =>
    deps.octokit.paginate(deps.octokit.rest.checks.listForRef, {
      owner: deps.owner,
      repo: deps.repo,
      ref,
      filter: 'latest',
      per_page: 100,
    }),
  );
}

/** Names of the checks failing on a ref, sorted and unique. */
export async function failingCheckNames(deps: HostDeps, ref: string): Promise<string[]> {
  const runs = await latestRuns(deps, ref);
  return [...new Set(runs.filter((r) => FAILING.has(r.conclusion ?? '')).map((r) => r.name))].sort();
}

async function annotations(deps: HostDeps, checkRunId: number): Promise<AnnotationLike[]> {
  const { data } = await call('list annotations', () =>
    deps.octokit.rest.checks.listAnnotations({
      owner: deps.owner,
      repo: deps.repo,
      check_run_id: checkRunId,
      per_page: FAILED_CHECK_LIMITS.annotations,
    }),
  );
  return data.slice(0, FAILED_CHECK_LIMITS.annotations);
}

/** What could not be read is said in the output rather than failing the whole CI-fix task. */
function unavailable(what: string, err: unknown): string {
  if (!(err instanceof GitHubError)) throw err;
  return `(${what} unavailable: ${err.kind}${err.status ? ` ${err.status}` : ''})`;
}

/**
 * Failed checks on a commit with what they printed: output, annotations and, for GitHub Actions
 * (whose check run id is the job id), the job log cut to the failing part.
 */
export async function failedChecks(deps: HostDeps, headSha: string, names?: string[]): Promise<FailedCheck[]> {
  const runs = (await latestRuns(deps, headSha))
    .filter((r) => FAILING.has(r.conclusion ?? '') && (names === undefined || names.includes(r.name)))
    .slice(0, FAILED_CHECK_LIMITS.checks);
  const result: FailedCheck[] = [];
  for (const run of runs) {
    const notes: string[] = [];
    const found = await annotations(deps, run.id).catch((err: unknown) => (notes.push(unavailable('annotations', err)), []));
    let log: string | null = null;
    if (run.app?.slug === 'github-actions') {
      log = await downloadJobLog(deps, run.id)
        .then((text) => failingPart(text, FAILED_CHECK_LIMITS.logChars))
        .catch((err: unknown) => (notes.push(unavailable('job log', err)), null));
    }
    const text = checkOutputText(run.output, found, notes);
    result.push({ name: run.name, checkRunId: run.id, output: clipHeadTail(text, FAILED_CHECK_LIMITS.outputChars), log });
  }
  return result;
}
