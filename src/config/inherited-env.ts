/** What greenfix's own trusted children (git, rg) inherit from its environment. */
export interface InheritedEnv {
  PATH?: string;
  HOME?: string;
  LANG?: string;
}

/**
 * PATH, HOME and LANG of this process and nothing else (no token, key or secret can pass): what
 * the host-side git and the read-only tools' rg and git run with. With env-config.ts and cli's
 * entry, the only readers of the process environment.
 */
export function inheritedEnv(): InheritedEnv {
  const { PATH, HOME, LANG } = process.env;
  return { ...(PATH !== undefined ? { PATH } : {}), ...(HOME !== undefined ? { HOME } : {}), ...(LANG !== undefined ? { LANG } : {}) };
}
