import type { ProfileName } from './provider-profile.js';

interface Rule {
  /** What in the refusal's text names the parameter. */
  match: RegExp;
  /** The parameter, as the sentence names it. */
  param: string;
  /** The setting that fixes it, given the profile in use. */
  fix: (profile: ProfileName) => string;
}

const RULES: readonly Rule[] = [
  // OpenAI: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead."
  { match: /'?max_tokens'? is not supported|use '?max_completion_tokens/i, param: 'max_tokens', fix: () => 'GREENFIX_MODEL_PROFILE=openai-reasoning (it sends max_completion_tokens)' },
  { match: /max_completion_tokens/i, param: 'max_completion_tokens', fix: () => 'GREENFIX_MODEL_PROFILE=generic (it sends max_tokens)' },
  { match: /reasoning_content/i, param: 'reasoning_content', fix: (p) => (p === 'deepseek' ? 'GREENFIX_MODEL_PROFILE=generic (it sends no reasoning back)' : 'GREENFIX_MODEL_PROFILE=deepseek (it sends the reasoning back with its tool calls)') },
  { match: /thought_signature|thought signature/i, param: 'thought_signature', fix: () => 'GREENFIX_MODEL_PROFILE=gemini (it sends the thought signatures back with their tool calls)' },
  { match: /extra_content/i, param: 'extra_content', fix: () => 'GREENFIX_MODEL_PROFILE=generic (it sends no extra_content)' },
  { match: /reasoning_effort/i, param: 'reasoning_effort', fix: () => 'GREENFIX_REASONING_EFFORT unset (or a profile without reasoning effort, such as generic)' },
  { match: /temperature/i, param: 'temperature', fix: () => 'GREENFIX_MODEL_PROFILE=openai-reasoning (it sends no temperature)' },
];

/**
 * One sentence for a refusal that names a parameter a profile decides: which parameter, under
 * which profile, and the setting that fixes it. Null when the refusal names none of them.
 */
export function parameterHint(serverText: string, param: string | undefined, profile: ProfileName): string | null {
  const text = `${param ?? ''} ${serverText}`;
  const rule = RULES.find((r) => r.match.test(text));
  if (!rule) return null;
  return `the endpoint refused \`${rule.param}\` as the '${profile}' profile sends it; set ${rule.fix(profile)}`;
}
