import type { TriggerContext } from '../../src/triggers/types.js';

/** greenfix as the trigger tests see it. */
export const CTX: TriggerContext = {
  appId: 987654,
  botLogin: 'greenfix[bot]',
  label: 'agent-fix',
  branchPrefix: 'greenfix/',
};
