export { RepoConfigSchema, defaultRepoConfig, type RepoConfig } from './repo-config.js';
export { parseRepoConfig, CONFIG_PATH, type RepoConfigResult } from './parse-repo-config.js';
export { loadRepoConfig } from './load-repo-config.js';
export { renderConfigProblems, CONFIG_ERRORS_MARKER } from './render-config-problems.js';
export { loadEnvConfig, DEFAULT_PORT, DEFAULT_CONCURRENCY, DEFAULT_WORKDIR_NAME, type EnvConfig, type EnvDeps } from './env-config.js';
export { EnvConfigError } from './env-config-error.js';
export { ENV_VARIABLES } from './env-schema.js';
