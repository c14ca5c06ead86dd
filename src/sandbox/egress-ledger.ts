import type { Socket } from 'node:net';
import type { EgressTarget } from './egress-decision.js';

export interface EgressRefusal {
  /** `host:port` as the client asked for it. */
  target: string;
  reason: string;
  /** The address that was refused, when it differs from the host. */
  address?: string;
  count: number;
}

/** The connections the proxy made to one `host:port`, and the bytes they carried. */
export interface EgressConnection {
  /** `host:port` as the client asked for it. */
  target: string;
  /** The address connected to, when it differs from the host. */
  address?: string;
  count: number;
  /** Bytes sent upstream, and received from it. */
  bytesOut: number;
  bytesIn: number;
}

export interface EgressReport {
  refusedCount: number;
  /** The first distinct refusals (at most MAX_NAMED), with how often each happened. */
  refused: EgressRefusal[];
  /** Connections made, by target (the first MAX_NAMED targets; absent in reports of older runs). */
  connectedCount?: number;
  connections?: EgressConnection[];
}

export const MAX_NAMED = 20;

/** `host:port`, an IPv6 literal in brackets. */
export function targetName(target: EgressTarget): string {
  return `${target.host.includes(':') ? `[${target.host}]` : target.host}:${target.port}`;
}

/**
 * What one proxy did: every connection it made (bytes counted on its upstream socket, live ones
 * as they stand) and every one it refused. One per proxy, so one per setup run.
 */
export class EgressLedger {
  private refusedCount = 0;
  private connectedCount = 0;
  private readonly refusals = new Map<string, EgressRefusal>();
  private readonly connections = new Map<string, EgressConnection>();
  private readonly live = new Map<Socket, EgressConnection>();

  /** Records a refusal; returns the line the client is answered with. */
  refused(target: EgressTarget, reason: string, address?: string): string {
    this.refusedCount += 1;
    const name = targetName(target);
    const other = address && address !== target.host ? address : undefined;
    const key = `${name} ${reason}`;
    const seen = this.refusals.get(key);
    if (seen) seen.count += 1;
    else if (this.refusals.size < MAX_NAMED) this.refusals.set(key, { target: name, reason, ...(other ? { address: other } : {}), count: 1 });
    return `greenfix egress proxy: refused ${name}: ${reason}${other ? ` (${other})` : ''}\n`;
  }

  /** Records a connection made to `address` for `target`; its bytes are read from `upstream`. */
  connected(target: EgressTarget, address: string, upstream: Socket): void {
    this.connectedCount += 1;
    const name = targetName(target);
    let entry = this.connections.get(name);
    if (!entry && this.connections.size < MAX_NAMED) {
      entry = { target: name, ...(address !== target.host ? { address } : {}), count: 0, bytesOut: 0, bytesIn: 0 };
      this.connections.set(name, entry);
    }
    if (!entry) return;
    entry.count += 1;
    const counted = entry;
    this.live.set(upstream, counted);
    upstream.once('close', () => {
      counted.bytesOut += upstream.bytesWritten;
      counted.bytesIn += upstream.bytesRead;
      this.live.delete(upstream);
    });
  }

  report(): EgressReport {
    const connections = [...this.connections.values()].map((c) => ({ ...c }));
    for (const [socket, entry] of this.live) {
      const copy = connections.find((c) => c.target === entry.target);
      if (copy) {
        copy.bytesOut += socket.bytesWritten;
        copy.bytesIn += socket.bytesRead;
      }
    }
    return { refusedCount: this.refusedCount, refused: [...this.refusals.values()].map((r) => ({ ...r })), connectedCount: this.connectedCount, connections };
  }
}
