/** Text as HTML: every character that could open markup escaped. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

/** A unified diff with each line classed (`add`, `del`, `hunk`, `file`), escaped. */
export function diffHtml(diff: string): string {
  return diff
    .replace(/\r/g, '')
    .trimEnd()
    .split('\n')
    .map((line) => {
      const cls = /^(\+\+\+|---|diff --git|index )/.test(line) ? 'file' : line.startsWith('@@') ? 'hunk' : line.startsWith('+') ? 'add' : line.startsWith('-') ? 'del' : '';
      return cls ? `<span class="${cls}">${escapeHtml(line)}</span>` : escapeHtml(line);
    })
    .join('\n');
}
