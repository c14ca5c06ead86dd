import type { EgressReport } from './egress-ledger.js';

function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} kB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * One line naming the connections the egress proxy made, with the bytes each target carried:
 * "3 connections made by the egress proxy: registry.npmjs.org:443 ×2 (1.2 MB in, 3.4 kB out), …".
 * Null when none was made (or the report predates the count).
 */
export function describeConnections(report: EgressReport, maxNamed = 5): string | null {
  const count = report.connectedCount ?? 0;
  if (count === 0) return null;
  const listed = report.connections ?? [];
  const names = listed.slice(0, maxNamed).map((c) => {
    const address = c.address ? ` [${c.address}]` : '';
    const times = c.count > 1 ? ` ×${c.count}` : '';
    return `${c.target}${address}${times} (${bytes(c.bytesIn)} in, ${bytes(c.bytesOut)} out)`;
  });
  const more = listed.length > maxNamed || listed.reduce((n, c) => n + c.count, 0) < count ? ', …' : '';
  return `${count} ${count === 1 ? 'connection' : 'connections'} made by the egress proxy: ${names.join(', ')}${more}`;
}
