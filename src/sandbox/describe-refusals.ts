import type { EgressReport } from './egress-ledger.js';

/**
 * One line naming what the egress proxy refused, for the status comment and the CLI:
 * "2 connections refused: 127.0.0.1:6379 loopback, metadata.test:80 link-local (169.254.169.254)".
 * Null when nothing was refused.
 */
export function describeRefusals(report: EgressReport, maxNamed = 5): string | null {
  if (report.refusedCount === 0) return null;
  const names = report.refused.slice(0, maxNamed).map((r) => {
    const address = r.address ? ` (${r.address})` : '';
    const times = r.count > 1 ? ` ×${r.count}` : '';
    return `${r.target} ${r.reason}${address}${times}`;
  });
  const more = report.refused.length > maxNamed || report.refused.reduce((n, r) => n + r.count, 0) < report.refusedCount ? ', …' : '';
  const noun = report.refusedCount === 1 ? 'connection' : 'connections';
  return `${report.refusedCount} ${noun} refused by the egress proxy: ${names.join(', ')}${more}`;
}
