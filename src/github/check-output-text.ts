/** The parts of a check run's output and annotations the CI-fix task shows. */
export interface OutputLike {
  title?: string | null;
  summary?: string | null;
  text?: string | null;
}

export interface AnnotationLike {
  path: string;
  start_line: number;
  end_line?: number;
  annotation_level: string | null;
  title?: string | null;
  message: string | null;
}

function location(a: AnnotationLike): string {
  const end = a.end_line !== undefined && a.end_line !== a.start_line ? `-${a.end_line}` : '';
  return `${a.path}:${a.start_line}${end}`;
}

/** Plain text: title, summary, text, then one line per annotation `level path:line title: message`. */
export function checkOutputText(output: OutputLike, annotations: AnnotationLike[], notes: string[] = []): string {
  const parts = [output.title, output.summary, output.text].filter((p): p is string => typeof p === 'string' && p.trim() !== '');
  if (annotations.length > 0) {
    parts.push(
      ['Annotations:', ...annotations.map((a) => `- ${a.annotation_level ?? 'notice'} ${location(a)}${a.title ? ` ${a.title}` : ''}: ${a.message ?? ''}`)].join('\n'),
    );
  }
  parts.push(...notes);
  return parts.length > 0 ? parts.join('\n\n') : '(the check reported no output)';
}
