import { networkInterfaces } from 'node:os';
import { canonicalAddress } from './address-policy.js';
import type { EndpointPolicy } from './egress-decision.js';

/** The machine's own addresses now (read again at every call: interfaces come and go). */
export type HostAddresses = () => readonly string[];

/**
 * Every address of every non-loopback interface (loopback is refused by range already). Read from
 * the kernel each time it is asked, so an address added after startup (DHCP, a VPN) is known at
 * the next connection check.
 */
export const systemHostAddresses: HostAddresses = () =>
  Object.values(networkInterfaces()).flatMap((list) => (list ?? []).filter((i) => !i.internal).map((i) => i.address));

/** The reason the proxy names for the machine's own address. */
export const HOST_ADDRESS_REASON = "host's own address";

/**
 * `base`, and before it: never the host itself. On a host whose address is in a range `base`
 * treats as public, a listener on 0.0.0.0 would otherwise be reachable from setup.
 */
export function refuseHostAddresses(base: EndpointPolicy, host: HostAddresses): EndpointPolicy {
  return (address, port) => {
    const checked = canonicalAddress(address);
    if (checked !== null && host().some((own) => canonicalAddress(own) === checked)) return HOST_ADDRESS_REASON;
    return base(address, port);
  };
}
