/**
 * Paths as git prints them with core.quotePath on: plain ASCII as is, anything else C-quoted
 * ("dir/caf\303\251"). That form is lossless ASCII, so it is the key we store and feed back to
 * `update-index --index-info`; `displayPath` turns it into text for people and the model.
 */

const SIMPLE_ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };

/** The raw bytes of a path in git's quoted form. */
export function unquotePathBytes(quoted: string): Buffer {
  if (!quoted.startsWith('"')) return Buffer.from(quoted, 'utf8');
  const bytes: number[] = [];
  const body = quoted.slice(1, -1);
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (ch !== '\\') {
      bytes.push(...Buffer.from(ch, 'utf8'));
      continue;
    }
    const next = body[i + 1] ?? '';
    if (/[0-7]/.test(next)) {
      bytes.push(parseInt(body.slice(i + 1, i + 4), 8));
      i += 3;
    } else {
      bytes.push(SIMPLE_ESCAPES[next] ?? next.charCodeAt(0));
      i += 1;
    }
  }
  return Buffer.from(bytes);
}

/** Human-readable path: UTF-8 decoded (invalid bytes become U+FFFD). */
export function displayPath(quoted: string): string {
  return unquotePathBytes(quoted).toString('utf8');
}
