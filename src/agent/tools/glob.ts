/**
 * ripgrep-style globs for filtering paths ourselves (the git grep backend has no --glob):
 * `*` and `?` stay inside one path segment, `**` crosses them, `{a,b}` alternates, `!` negates.
 * A glob without `/` matches the file name anywhere; one with `/` matches the whole path.
 */
export function globToRegExp(glob: string): RegExp {
  let re = '';
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      const slash = glob[i + 2] === '/';
      re += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '{') (re += '(?:'), braces++;
    else if (c === '}' && braces > 0) (re += ')'), braces--;
    else if (c === ',' && braces > 0) re += '|';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 1);
      if (end === -1) re += '\\[';
      else (re += `[${glob.slice(i + 1, end).replace(/^!/, '^').replace(/\\/g, '\\\\')}]`), (i = end);
    } else re += c.replace(/[.+^$()|\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

export function matchesGlob(path: string, glob: string): boolean {
  const negated = glob.startsWith('!');
  const pattern = negated ? glob.slice(1) : glob;
  const target = pattern.includes('/') ? path : path.slice(path.lastIndexOf('/') + 1);
  return globToRegExp(pattern.replace(/^\//, '')).test(target) !== negated;
}
