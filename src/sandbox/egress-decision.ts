import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { publicOnly, type AddressPolicy } from './address-policy.js';
import { isAllowed, normalizeHost, type AllowLists } from './domain-allow-list.js';

/** Resolves a host name to every address it has (dns.lookup with all: true). */
export type Resolver = (host: string) => Promise<Array<{ address: string; family: number }>>;

export const systemResolver: Resolver = (host) => lookup(host, { all: true, verbatim: true });

export interface EgressTarget {
  /** Lower-case name or bare IP (no brackets). */
  host: string;
  port: number;
}

export type EgressDecision =
  | { ok: true; address: string; family: number }
  | { ok: false; reason: string; address?: string };

/** Why the proxy may not connect to `address` at `port`, or null when it may. */
export type EndpointPolicy = (address: string, port: number) => string | null;

export const publicEndpoints: EndpointPolicy = (address) => publicOnly(address);

export interface EgressRules {
  allow: AllowLists;
  policy: EndpointPolicy;
  resolve: Resolver;
}

/**
 * `host:port` of a CONNECT (`[v6]:port` for IPv6) or the authority of an absolute http:// URI, or
 * null when malformed. WHATWG URL parsing normalises IPv4 spellings (0x7f000001, 0177.1, 2130706433)
 * to dotted form, so a literal address is always recognised as one.
 */
export function parseTarget(authority: string, defaultPort: number | null): EgressTarget | null {
  if (!/^[^\s/?#@]+$/.test(authority)) return null;
  let url: URL;
  try {
    url = new URL(`http://${authority}`);
  } catch {
    return null;
  }
  const explicit = /:(\d+)$/.exec(authority);
  const port = explicit ? Number(explicit[1]) : defaultPort;
  if (port === null || !Number.isInteger(port) || port < 1 || port > 65_535) return null;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (host === '') return null;
  return { host: isIP(host) ? host : normalizeHost(host), port };
}

/**
 * Whether the proxy may connect, and to which address: a literal IP is checked as it is; a name is
 * checked against the allow-lists, resolved once, refused when ANY of its addresses is refused, and
 * the connection then goes to the address checked (never a second lookup: no DNS rebinding).
 */
export async function decide(target: EgressTarget, rules: EgressRules): Promise<EgressDecision> {
  const literal = isIP(target.host);
  if (literal) {
    const reason = rules.policy(target.host, target.port);
    if (reason) return { ok: false, reason, address: target.host };
    // The allow-list names domains: an address literal is never on it.
    if (rules.allow.length > 0) return { ok: false, reason: 'not in the allow-list' };
    return { ok: true, address: target.host, family: literal };
  }
  if (!isAllowed(target.host, rules.allow)) return { ok: false, reason: 'not in the allow-list' };
  let addresses: Array<{ address: string; family: number }>;
  try {
    addresses = await rules.resolve(target.host);
  } catch {
    return { ok: false, reason: 'does not resolve' };
  }
  if (addresses.length === 0) return { ok: false, reason: 'does not resolve' };
  for (const { address } of addresses) {
    const reason = rules.policy(address, target.port);
    if (reason) return { ok: false, reason, address };
  }
  const chosen = addresses[0]!;
  return { ok: true, address: chosen.address, family: chosen.family };
}

/**
 * A test-only policy: `publicOnly`, except that the listed `ip:port` endpoints count as public. Tests
 * use it to let the proxy reach one loopback server that plays a public host.
 */
export function testOnlyTreatAsPublic(endpoints: readonly string[], base: AddressPolicy = publicOnly): EndpointPolicy {
  return (address, port) => {
    const key = isIP(address) === 6 ? `[${address}]:${port}` : `${address}:${port}`;
    return endpoints.includes(key) ? null : base(address);
  };
}
