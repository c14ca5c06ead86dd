import type { Readable } from 'node:stream';

/** One entry of a tar archive, as its header (and any PAX / GNU long-name record) says. */
export interface TarHeader {
  path: string;
  /** '0' file, '1' hard link, '2' symlink, '3' char device, '4' block device, '5' dir, '6' FIFO… */
  type: string;
  mode: number;
  linkTarget: string;
  size: number;
}

const BLOCK = 512;

/**
 * The headers of a tar stream (ustar, with PAX `x` records and GNU `L`/`K` long names), read
 * without extracting anything: the layer check needs names, types, modes and link targets only.
 * A truncated or malformed archive throws.
 */
export async function* tarHeaders(stream: Readable): AsyncGenerator<TarHeader> {
  let buffer: Buffer = Buffer.alloc(0);
  let skip = 0;
  let pending: { path?: string; linkTarget?: string } = {};
  let want: { kind: 'header' } | { kind: 'record'; type: string; size: number } = { kind: 'header' };
  let ended = false;
  for await (const chunk of stream) {
    buffer = buffer.length === 0 ? (chunk as Buffer) : Buffer.concat([buffer, chunk as Buffer]);
    for (;;) {
      if (skip > 0) {
        const n = Math.min(skip, buffer.length);
        buffer = buffer.subarray(n);
        skip -= n;
        if (skip > 0) break;
      }
      if (ended) {
        buffer = Buffer.alloc(0);
        break;
      }
      if (want.kind === 'record') {
        const padded = roundUp(want.size);
        if (buffer.length < padded) break;
        const text = buffer.subarray(0, want.size).toString('utf8');
        buffer = buffer.subarray(padded);
        if (want.type === 'x') pending = { ...pending, ...paxFields(text) };
        else if (want.type === 'L') pending.path = text.replace(/\0.*$/s, '');
        else if (want.type === 'K') pending.linkTarget = text.replace(/\0.*$/s, '');
        want = { kind: 'header' };
        continue;
      }
      if (buffer.length < BLOCK) break;
      const block = buffer.subarray(0, BLOCK);
      buffer = buffer.subarray(BLOCK);
      if (block.every((b) => b === 0)) {
        ended = true;
        continue;
      }
      checkChecksum(block);
      const type = String.fromCharCode(block[156] || 0x30);
      const size = octal(block.subarray(124, 136));
      if (type === 'x' || type === 'L' || type === 'K') {
        want = { kind: 'record', type, size };
        continue;
      }
      if (type === 'g') {
        skip = roundUp(size);
        continue;
      }
      const name = text(block.subarray(0, 100));
      const prefix = block.subarray(257, 263).toString('latin1').startsWith('ustar') ? text(block.subarray(345, 500)) : '';
      const header: TarHeader = {
        path: pending.path ?? (prefix ? `${prefix}/${name}` : name),
        type,
        mode: octal(block.subarray(100, 108)),
        linkTarget: pending.linkTarget ?? text(block.subarray(157, 257)),
        // As Go's archive/tar (which wrote most layers): links, devices, dirs and FIFOs carry no data.
        size: '123456'.includes(type) ? 0 : size,
      };
      pending = {};
      yield header;
      skip = roundUp(header.size);
    }
  }
  if (!ended && (buffer.length > 0 || skip > 0 || want.kind === 'record')) throw new Error('the archive ends in the middle of an entry');
}

function roundUp(size: number): number {
  return Math.ceil(size / BLOCK) * BLOCK;
}

function text(field: Buffer): string {
  const end = field.indexOf(0);
  return field.subarray(0, end === -1 ? field.length : end).toString('utf8');
}

function octal(field: Buffer): number {
  // GNU base-256 for large numbers: the high bit of the first byte is set.
  if ((field[0] ?? 0) & 0x80) {
    let value = 0;
    for (let i = 1; i < field.length; i++) value = value * 256 + (field[i] ?? 0);
    return value;
  }
  const digits = text(field).trim();
  if (digits === '') return 0;
  if (!/^[0-7]+$/.test(digits)) throw new Error(`a tar header holds a malformed number (${JSON.stringify(digits)})`);
  return parseInt(digits, 8);
}

function checkChecksum(block: Buffer): void {
  const stored = octal(block.subarray(148, 156));
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : (block[i] ?? 0);
  if (sum !== stored) throw new Error('a tar header has a wrong checksum (a corrupt layer)');
}

/** PAX records: "<length> <key>=<value>\n"; only path and linkpath matter here. */
function paxFields(record: string): { path?: string; linkTarget?: string } {
  const fields: { path?: string; linkTarget?: string } = {};
  for (const line of record.split('\n')) {
    const match = /^\d+ ([^=]+)=(.*)$/s.exec(line);
    if (!match) continue;
    if (match[1] === 'path') fields.path = match[2];
    if (match[1] === 'linkpath') fields.linkTarget = match[2];
  }
  return fields;
}
