/**
 * An archive made of every archive-wide case, shared by the tests that hold two ways of validating to the same
 * findings (tests/archive/streaming.test.ts, verdict-cache.test.ts): linked reports found, missing, mislabelled,
 * unreadable or too large; ids used twice; files that are not records.
 */
import type { ArchiveReport } from '../../src/core/archive/validate-archive.ts';
import { MAX_RECORD_BYTES } from '../../src/core/rules/file/too-large.ts';
import type { FileContent } from './archive.ts';
import { echoWith, reportEcho, validEcho } from './records.ts';

export const report = (label = 'multi_hash_verification') => echoWith({ '/record_kind': 'verification_report_v2', '/verification_scope_label': label });
/** An echo that links REPORT. */
export const ECHO = 'b/echo-2026-05-02-000001.json';
export const REPORT = 'a/echo-2026-05-01-000001.json';
/** The one file over the size limit. */
export const TOO_LARGE = 'd/echo-2026-05-04-000004.json';

export const EVERY_CASE: Record<string, FileContent> = {
  'README.md': '# Records\n',
  [REPORT]: report(),
  [ECHO]: reportEcho(`/${REPORT}`),
  'b/echo-2026-05-02-000002.json': reportEcho(`/${REPORT}`),
  'b/echo-2026-05-02-000003.json': reportEcho('/c/echo-2026-05-03-000001.json'),
  'b/echo-2026-05-02-000004.json': reportEcho('/c/echo-2026-05-03-000002.json'),
  'b/echo-2026-05-02-000005.json': reportEcho('/nowhere/echo-2026-05-09-000001.json'),
  'b/echo-2026-05-02-000006.json': reportEcho('/b/echo-2026-05-02-000006.json'),
  'b/echo-2026-05-02-000007.json': reportEcho('/c/broken.json'),
  'b/echo-2026-05-02-000008.json': reportEcho('/d/echo-2026-05-04-000004.json'),
  'b/echo-2026-05-02-000009.json': reportEcho('/__proto__'),
  'c/echo-2026-05-03-000001.json': report(),
  'c/echo-2026-05-03-000002.json': report('component_limited_verification'),
  'c/broken.json': '{"schema": "service.echo.v3",',
  'd/echo-2026-05-01-000001.json': validEcho(),
  'd/notes.txt': 'not a record\n',
  'd/echo-2026-05-04-000001.json': `\uFEFF${JSON.stringify(validEcho())}`,
  'd/echo-2026-05-04-000002.json': `{"schema": "a", "schema": "b"}`,
  'd/echo-2026-05-04-000003.json': '[1, 2]',
  'd/echo-2026-05-04-000004.json': JSON.stringify({ ...validEcho(), padding: 'x'.repeat(MAX_RECORD_BYTES) }),
};

/** What a report says, without the loaded files and hashes. */
export function findings(report: ArchiveReport) {
  return {
    root: report.root,
    summary: report.summary,
    files: report.files.map(({ path, id, valid, diagnostics, removed }) => ({ path, id, valid, diagnostics, removed })),
  };
}
