import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EvalRecordSchema, type EvalRecord } from './eval-record.js';
import { renderEvalHtml } from './render-eval-html.js';
import { renderEvalMarkdown } from './render-eval-markdown.js';

/** A results file that cannot be read: which file and which line. */
export class ResultsFileError extends Error {
  override readonly name = 'ResultsFileError';
}

/** The report's three files in the eval's directory: results.jsonl, report.md, report.html. */
export function writeEvalResults(dir: string, records: readonly EvalRecord[], notRun: readonly string[]): { jsonl: string; markdown: string; html: string } {
  const paths = { jsonl: join(dir, 'results.jsonl'), markdown: join(dir, 'report.md'), html: join(dir, 'report.html') };
  writeFileSync(paths.jsonl, records.map((r) => JSON.stringify(r)).join('\n') + (records.length > 0 ? '\n' : ''));
  writeFileSync(paths.markdown, renderEvalMarkdown(records, notRun));
  writeFileSync(paths.html, renderEvalHtml(records, notRun));
  return paths;
}

/** Reads a results.jsonl back (for --compare), each line checked. */
export function readEvalResults(path: string): EvalRecord[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ResultsFileError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  return text
    .split('\n')
    .map((line, i) => ({ line, n: i + 1 }))
    .filter(({ line }) => line.trim() !== '')
    .map(({ line, n }) => {
      let json: unknown;
      try {
        json = JSON.parse(line);
      } catch (error) {
        throw new ResultsFileError(`${path}:${n}: not valid JSON: ${(error as Error).message}`);
      }
      const parsed = EvalRecordSchema.safeParse(json);
      if (!parsed.success) throw new ResultsFileError(`${path}:${n}: not an eval result: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
      return parsed.data;
    });
}
