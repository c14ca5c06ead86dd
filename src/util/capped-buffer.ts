/**
 * Collects a stream's bytes while keeping memory bounded: the first `headBytes` and a rolling
 * window of the last `tailBytes`. `yes` can run for ever and this never grows past the cap.
 */
export class CappedBuffer {
  private readonly head: Buffer[] = [];
  private headLength = 0;
  private tail: Buffer = Buffer.alloc(0);
  private total = 0;

  constructor(
    private readonly headBytes: number,
    private readonly tailBytes: number,
  ) {}

  push(chunk: Buffer): void {
    this.total += chunk.length;
    let rest = chunk;
    if (this.headLength < this.headBytes) {
      const take = Math.min(this.headBytes - this.headLength, rest.length);
      this.head.push(rest.subarray(0, take));
      this.headLength += take;
      rest = rest.subarray(take);
    }
    if (rest.length === 0) return;
    const joined = Buffer.concat([this.tail, rest]);
    this.tail = joined.subarray(Math.max(0, joined.length - this.tailBytes));
  }

  get totalBytes(): number {
    return this.total;
  }

  get truncated(): boolean {
    return this.total > this.headLength + this.tail.length;
  }

  toString(): string {
    const head = Buffer.concat(this.head).toString('utf8');
    const tail = this.tail.toString('utf8');
    if (!this.truncated) return head + tail;
    const elided = this.total - this.headLength - this.tail.length;
    return `${head}\n[${elided} bytes elided]\n${tail}`;
  }
}
