import type { FileReport } from '../pipeline/finding.js';
import type { Reporter } from './types.js';
import { describeVerdict } from './verdicts-text.js';

const ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;', '\r': '&#13;', '\n': '&#10;', '\t': '&#9;' };

/** Characters XML 1.0 forbids even as references (C0 controls but tab/LF/CR, lone surrogates, U+FFFE/U+FFFF): dropped. */
const ILLEGAL = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Text content; CR as a reference, since parsers turn a literal CR LF into LF. */
function text(value: string): string {
  return value.replace(ILLEGAL, '').replace(/[&<>"'\r]/g, (c) => ENTITY[c]!);
}

/** Attribute values; LF and tab as references too, since parsers turn literal ones into spaces. */
function attribute(value: string): string {
  return value.replace(ILLEGAL, '').replace(/[&<>"'\r\n\t]/g, (c) => ENTITY[c]!);
}

interface Failure {
  type: string;
  line: number;
  message: string;
  details: string;
}

/** Only what makes a transcript fail: error findings and FAIL verdicts. A judge ERROR says nothing about the transcript. */
function failures(report: FileReport): Failure[] {
  const found = report.findings
    .filter((finding) => finding.severity === 'error')
    .map((finding) => ({
      type: finding.rule,
      line: finding.line,
      message: finding.message,
      details: [
        `line ${finding.line}${finding.pointer === '' ? '' : `, pointer ${finding.pointer}`}`,
        finding.message,
        ...(finding.providerError === undefined ? [] : [`provider error: ${finding.providerError}`]),
      ].join('\n'),
    }));
  const judged = (report.verdicts ?? [])
    .filter((verdict) => verdict.verdict === 'FAIL')
    .map((verdict) => ({
      type: `verify/${verdict.category}`,
      line: verdict.line,
      message: verdict.feedback ?? '',
      details: `line ${verdict.line}\n${describeVerdict(verdict)}`,
    }));
  return [...found, ...judged];
}

function suite(report: FileReport): { xml: string[]; tests: number; failures: number } {
  const name = attribute(report.path);
  const failed = failures(report);
  // A file with nothing failed still shows up as one passing test, so CI lists every file checked.
  const cases =
    failed.length === 0
      ? [`    <testcase name="transcript-doctor" classname="${name}"/>`]
      : failed.map(
          (failure) =>
            `    <testcase name="${attribute(`${failure.type} line ${failure.line}`)}" classname="${name}">\n` +
            `      <failure message="${attribute(failure.message)}" type="${attribute(failure.type)}">${text(failure.details)}</failure>\n` +
            `    </testcase>`,
        );
  return {
    xml: [`  <testsuite name="${name}" tests="${cases.length}" failures="${failed.length}">`, ...cases, '  </testsuite>'],
    tests: cases.length,
    failures: failed.length,
  };
}

/** JUnit XML for CI test views: a test suite per file, a failed test case per error finding or FAIL verdict. */
export const junitReporter: Reporter = (reports) => {
  const suites = reports.map(suite);
  const tests = suites.reduce((sum, s) => sum + s.tests, 0);
  const failed = suites.reduce((sum, s) => sum + s.failures, 0);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="transcript-doctor" tests="${tests}" failures="${failed}">`,
    ...suites.flatMap((s) => s.xml),
    '</testsuites>',
    '',
  ].join('\n');
};
