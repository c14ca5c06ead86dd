/** The model layer's public surface: import from here, not from the files behind it. */
export type * from './types.js';
export { ModelError, type ModelErrorKind } from './errors.js';
export { ConfigError } from './config-error.js';
export { estimateTokens, estimateTextTokens } from './estimate-tokens.js';
export { modelConfigFromEnv, type ModelConfig, DEFAULT_BASE_URL, DEFAULT_MODEL } from './model-config.js';
export { createChatModel, defaultModelDeps, SCRIPTED_PREFIX } from './create-chat-model.js';
export { OpenAIChatModel, type OpenAIChatModelOptions, type ModelDeps } from './openai-chat-model.js';
export { ScriptedModel, scriptedModelFromFile } from './scripted-model.js';
export type { ScriptTurn } from './scripted-script.js';
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry-policy.js';
export { realSleep, type Sleep } from './sleep.js';
export { AttemptTimeoutError } from './attempt-timeout.js';
