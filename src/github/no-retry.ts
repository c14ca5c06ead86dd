/**
 * Request option for every create (POST): @octokit/plugin-retry re-sends a request that failed with
 * 5xx/429 (`request.retries` overrides its default of 3). A re-sent POST whose first attempt
 * succeeded on GitHub's side makes a duplicate, so creates go through `createOnce` instead, which
 * re-reads before it tries again.
 */
export const NO_RETRY = { request: { retries: 0 } } as const;
