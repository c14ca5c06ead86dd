import { ReportBuilder } from './report-builder.js';
import type { ReportFile, TestReport, TestStatus } from './test-report.js';

const CASE = /<testcase\b((?:[^>"']|"[^"]*"|'[^']*')*?)(\/>|>([\s\S]*?)<\/testcase>)/g;

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|lt|gt|amp|quot|apos);/gi, (_m, e: string) => {
    const k = e.toLowerCase();
    if (k === 'lt') return '<';
    if (k === 'gt') return '>';
    if (k === 'amp') return '&';
    if (k === 'quot') return '"';
    if (k === 'apos') return "'";
    const code = k.startsWith('#x') ? Number.parseInt(k.slice(2), 16) : Number.parseInt(k.slice(1), 10);
    return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : '';
  });
}

function attr(attrs: string, name: string): string {
  const m = new RegExp(`\\b${name}\\s*=\\s*("([^"]*)"|'([^']*)')`).exec(attrs);
  return decode(m?.[2] ?? m?.[3] ?? '');
}

function statusOf(body: string | undefined): TestStatus {
  if (!body) return 'passed';
  if (/<(failure|error)\b/.test(body)) return 'failed';
  if (/<skipped\b/.test(body)) return 'skipped';
  return 'passed';
}

/** A JUnit XML document (a `<testsuite>` or `<testsuites>` root), not some other XML file. */
export function isJunitXml(content: string): boolean {
  return /<testsuites?\b/.test(content);
}

/**
 * JUnit XML (maven surefire's `TEST-*.xml`, gradle's `build/test-results`, `pytest --junitxml`,
 * jest-junit, …): each `<testcase classname name>`; a `<failure>` or `<error>` child is a failure,
 * `<skipped>` a skip. Id `classname > name`. Several files make one report.
 */
export function parseJunitXml(files: readonly ReportFile[]): TestReport | null {
  const builder = new ReportBuilder();
  let found = false;
  for (const file of files) {
    if (!isJunitXml(file.content)) continue;
    found = true;
    for (const m of file.content.matchAll(CASE)) {
      const attrs = m[1] ?? '';
      builder.add([attr(attrs, 'classname'), attr(attrs, 'name')], statusOf(m[3]));
    }
  }
  return found ? builder.build('JUnit XML', true) : null;
}
