/** The public surface of `src/github/`: the GitHost over octokit, its errors, and the renderers. */
export { createGitHost, type GitHostOptions } from './octokit-host.js';
export { GitHubError, type GitHubErrorKind } from './errors.js';
export { failingPart } from './failing-part.js';
export { statusMarker, pullRequestMarker } from './status-marker.js';
export { renderStatusComment } from './render-status-comment.js';
export { renderPullRequestBody, type PullRequestBodyInput } from './render-pull-request.js';
export { renderCheckRunOutput, type CheckRunFailure } from './render-check-run.js';
export { renderRefusal, type RefusalCode, type RefusalDetails } from './render-refusal.js';
export { MAX_BODY_CHARS } from './limits.js';
export type * from './types.js';
export * from './report.js';
