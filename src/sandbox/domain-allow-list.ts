/**
 * Domain patterns the setup step may reach (`network.allow`, GREENFIX_SETUP_ALLOW): an exact name
 * (`registry.npmjs.org`) or `*.` and a suffix (`*.pythonhosted.org` matches `files.pythonhosted.org`,
 * not `pythonhosted.org` itself). Case and a trailing dot are ignored. Patterns are validated where
 * they are configured (config/domain-pattern.ts); one that is not a domain here matches nothing.
 */
/** Every list must match (the operator's and the repository's); no list means any public host. */
export type AllowLists = readonly (readonly string[])[];

export function normalizeHost(host: string): string {
  return host.toLowerCase().replace(/\.$/, '');
}

export function matchesPattern(host: string, pattern: string): boolean {
  const name = normalizeHost(host);
  const p = pattern.toLowerCase();
  if (p.startsWith('*.')) return name.endsWith(p.slice(1)) && name.length > p.length - 1;
  return name === p;
}

export function isAllowed(host: string, lists: AllowLists): boolean {
  return lists.every((list) => list.some((pattern) => matchesPattern(host, pattern)));
}

/** GREENFIX_SETUP_ALLOW: comma- or whitespace-separated patterns (validated by the env schema); null when unset or blank. */
export function parseAllowList(value: string | undefined): string[] | null {
  const patterns = (value ?? '').split(/[\s,]+/).filter(Boolean);
  return patterns.length > 0 ? patterns : null;
}
