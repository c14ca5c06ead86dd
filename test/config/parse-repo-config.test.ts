import { defaultRepoConfig } from '../../src/config/repo-config.js';
import { parseRepoConfig } from '../../src/config/parse-repo-config.js';

const problemsOf = (raw: unknown): string[] => {
  const result = parseRepoConfig(raw);
  return result.ok ? [] : result.problems;
};

describe('parseRepoConfig', () => {
  it('no file means the defaults', () => {
    expect(parseRepoConfig(null)).toEqual({ ok: true, config: defaultRepoConfig() });
    expect(parseRepoConfig(undefined)).toEqual({ ok: true, config: defaultRepoConfig() });
    expect(defaultRepoConfig()).toMatchObject({ label: 'agent-fix', branch_prefix: 'greenfix/', autofix: { own: true, humans: false, max_attempts: 3 } });
  });

  it('keeps what is set and defaults the rest, nested objects included', () => {
    const result = parseRepoConfig({ label: 'fix-me', verify: 'make test', autofix: { humans: true } });
    expect(result).toEqual({
      ok: true,
      config: { ...defaultRepoConfig(), label: 'fix-me', verify: 'make test', autofix: { own: true, humans: true, max_attempts: 3 } },
    });
  });

  it('names the key and the rule', () => {
    expect(problemsOf({ autofix: { max_attempts: 11 } })).toEqual(['autofix.max_attempts: must be at most 10']);
    expect(problemsOf({ max_tokens: 5 })).toEqual(['max_tokens: must be at least 10,000']);
    expect(problemsOf({ label: '' })).toEqual(['label: must not be empty']);
    expect(problemsOf({ label: 'x'.repeat(51) })).toEqual(['label: must be at most 50 characters long']);
    expect(problemsOf({ max_steps: 2.5 })).toEqual(['max_steps: must be a whole number (not a number)']);
    expect(problemsOf({ draft: 'yes' })).toEqual(['draft: must be true or false (not text)']);
    expect(problemsOf({ verify: null })).toEqual(['verify: must be text (the key has no value)']);
    expect(problemsOf({ paths: { deny: 'dist/**' } })).toEqual(['paths.deny: must be a list (not text)']);
    expect(problemsOf({ paths: { deny: ['ok', ''] } })).toEqual(['paths.deny[1]: must not be empty']);
    expect(problemsOf({ branch_prefix: 'bad' })).toEqual([
      'branch_prefix: a branch prefix is letters, digits, ".", "_" or "-" and ends with "/"',
    ]);
  });

  it('tests.allow_removed: off by default, a boolean, strict', () => {
    expect(defaultRepoConfig().tests).toEqual({ allow_removed: false });
    expect(parseRepoConfig({ tests: { allow_removed: true } })).toMatchObject({ ok: true, config: { tests: { allow_removed: true } } });
    expect(problemsOf({ tests: { allow_removed: 'yes' } })).toEqual(['tests.allow_removed: must be true or false (not text)']);
    expect(problemsOf({ tests: { allow_removal: true } })).toEqual(['tests: unknown key `allow_removal` (did you mean `allow_removed`?)']);
  });

  it('limits: open_prs and prs_per_hour, whole numbers from 1, unset by default (no limit), strict', () => {
    expect(defaultRepoConfig().limits).toEqual({});
    expect(parseRepoConfig({ limits: { open_prs: 3, prs_per_hour: 1 } })).toMatchObject({ ok: true, config: { limits: { open_prs: 3, prs_per_hour: 1 } } });
    expect(problemsOf({ limits: { open_prs: 0 } })).toEqual(['limits.open_prs: must be at least 1']);
    expect(problemsOf({ limits: { prs_per_hour: 1.5 } })).toEqual(['limits.prs_per_hour: must be a whole number (not a number)']);
    expect(problemsOf({ limits: { pr_hourly_limit: 2 } })).toHaveLength(1);
    expect(problemsOf({ limits: { pr_hourly_limit: 2 } })[0]).toContain('pr_hourly_limit');
  });

  it('network.allow: a list of domain patterns, empty by default (any public host)', () => {
    expect(defaultRepoConfig().network).toEqual({ allow: [] });
    const ok = parseRepoConfig({ network: { allow: ['registry.npmjs.org', '*.pythonhosted.org', 'Files.Example.COM'] } });
    expect(ok.ok && ok.config.network.allow).toEqual(['registry.npmjs.org', '*.pythonhosted.org', 'Files.Example.COM']);
    for (const bad of ['127.0.0.1', 'http://registry.npmjs.org', '*', 'a.*.org', 'registry.npmjs.org:443', '']) {
      expect(problemsOf({ network: { allow: [bad] } })).toEqual([expect.stringMatching(/^network\.allow\[0\]: /)]);
    }
    expect(problemsOf({ network: { allow: 'registry.npmjs.org' } })).toEqual(['network.allow: must be a list (not text)']);
    expect(problemsOf({ network: { alow: [] } })).toEqual(['network: unknown key `alow` (did you mean `allow`?)']);
  });

  it('caps: daily and monthly USD, wait by default or refuse; strict', () => {
    expect(defaultRepoConfig().caps).toEqual({ on_reached: 'wait' });
    expect(parseRepoConfig({ caps: { daily_usd: 2.5, monthly_usd: 40, on_reached: 'refuse' } })).toMatchObject({ ok: true, config: { caps: { daily_usd: 2.5, monthly_usd: 40, on_reached: 'refuse' } } });
    expect(problemsOf({ caps: { daily_usd: 0 } })).toEqual(['caps.daily_usd: must be more than 0']);
    expect(problemsOf({ caps: { on_reached: 'skip' } })).toEqual(['caps.on_reached: must be one of `wait`, `refuse`']);
    expect(problemsOf({ caps: { weekly_usd: 10 } })).toEqual([expect.stringContaining('caps: unknown key `weekly_usd`')]);
  });

  it('unknown keys are errors, with a suggestion when one is close', () => {
    expect(problemsOf({ lable: 'x' })).toEqual(['unknown key `lable` (did you mean `label`?)']);
    expect(problemsOf({ 'branch-prefix': 'x/' })).toEqual(['unknown key `branch-prefix` (did you mean `branch_prefix`?)']);
    expect(problemsOf({ autofix: { max_attempt: 2 } })).toEqual(['autofix: unknown key `max_attempt` (did you mean `max_attempts`?)']);
    expect(problemsOf({ paths: { zzz: 1 } })).toEqual(['paths: unknown key `zzz` (known keys: deny, allow_workflows)']);
  });

  it('lists every problem at once', () => {
    const problems = problemsOf({ lable: 'x', draft: 1, autofix: { max_attempts: 0, humanz: true }, timeout_minutes: 999 });
    expect(problems).toHaveLength(5);
    expect(problems).toEqual(
      expect.arrayContaining([
        'unknown key `lable` (did you mean `label`?)',
        'draft: must be true or false (not a whole number)',
        'autofix.max_attempts: must be at least 1',
        'autofix: unknown key `humanz` (did you mean `humans`?)',
        'timeout_minutes: must be at most 180',
      ]),
    );
  });

  it('a document that is not a mapping is one problem', () => {
    expect(problemsOf(['a', 'b'])).toEqual(['`.github/greenfix.yml` must be a mapping of keys (like `label: agent-fix`), not a list']);
    expect(problemsOf('agent-fix')).toEqual(['`.github/greenfix.yml` must be a mapping of keys (like `label: agent-fix`), not text']);
    expect(problemsOf(42)).toHaveLength(1);
  });

  it('a key with backticks cannot break the comment markup', () => {
    expect(problemsOf({ 'a`b': 1 })).toEqual([expect.stringMatching(/^unknown key `ab` \(known keys: label, /)]);
  });
});
