import { createOnce } from './create-once.js';
import { call } from './errors.js';
import type { HostDeps } from './host-deps.js';
import { NO_RETRY } from './no-retry.js';
import { fitCheckRunOutput } from './limits.js';
import type { CheckRunDraft } from './types.js';

interface FoundRun {
  id: number;
  url: string;
}

/** Our check run on the commit: same name (server-side filter) and same external id (the job). */
async function findRun(deps: HostDeps, draft: CheckRunDraft): Promise<FoundRun | null> {
  const runs = await call('list check runs', () =>
    deps.octokit.paginate(deps.octokit.rest.checks.listForRef, {
      owner: deps.owner,
      repo: deps.repo,
      ref: draft.headSha,
      check_name: draft.name,
      filter: 'all',
      per_page: 100,
    }),
  );
  const hit = runs.find((r) => r.external_id === draft.externalId);
  return hit ? { id: hit.id, url: hit.html_url ?? '' } : null;
}

/** The fields create and update share; a conclusion only with `completed` (GitHub refuses it otherwise). */
function fields(draft: CheckRunDraft) {
  return {
    status: draft.status,
    ...(draft.status === 'completed' && draft.conclusion ? { conclusion: draft.conclusion } : {}),
    output: fitCheckRunOutput(draft.output),
    ...(draft.detailsUrl ? { details_url: draft.detailsUrl } : {}),
  };
}

/** Creates the check run for (headSha, externalId) once; later calls update it in place. */
export async function upsertCheckRun(deps: HostDeps, draft: CheckRunDraft): Promise<{ id: number; url: string }> {
  const { owner, repo } = deps;
  const result = await createOnce<FoundRun>({
    find: () => findRun(deps, draft),
    create: async () => {
      const { data } = await call('create check run', () =>
        deps.octokit.rest.checks.create({
          owner,
          repo,
          name: draft.name,
          head_sha: draft.headSha,
          external_id: draft.externalId,
          ...fields(draft),
          ...NO_RETRY,
        }),
      );
      return { id: data.id, url: data.html_url ?? '' };
    },
    attempts: deps.createAttempts,
    sleep: deps.sleep,
  });
  if ('created' in result) return result.created;
  const found = result.found;
  await call('update check run', () =>
    deps.octokit.rest.checks.update({ owner, repo, check_run_id: found.id, ...fields(draft) }),
  );
  return found;
}
