/**
 * Diagnostics of one file in the validate CLI's formats (pretty, json, github): the core's formatters, given a
 * one-file report.
 */
import { basename, dirname, resolve } from 'node:path';
import type { ArchiveReport } from '../core/archive/validate-archive.ts';
import type { LoadedFile } from '../core/archive/load-archive.ts';
import { isError, type Diagnostic } from '../core/diagnostics/diagnostic.ts';
import { formatGithub } from '../core/report/format-github.ts';
import { formatJson } from '../core/report/format-json.ts';
import { formatPretty } from '../core/report/format-pretty.ts';
import { UsageError } from './cli.ts';

export type ReportFormat = 'pretty' | 'json' | 'github';

export function reportFormat(value: string | undefined): ReportFormat {
  const format = value ?? 'pretty';
  if (format !== 'pretty' && format !== 'json' && format !== 'github') {
    throw new UsageError(`unknown --format "${format}": use pretty, json or github`);
  }
  return format;
}

export function singleFileReport(filePath: string, diagnostics: Diagnostic[]): ArchiveReport {
  const abs = resolve(filePath);
  const root = dirname(abs);
  const path = basename(abs);
  const id = path.replace(/\.json$/, '');
  const file: LoadedFile = { path, id, size: 0 };
  const errors = diagnostics.filter(isError).length;
  const valid = errors === 0;
  return {
    root,
    files: [{ path, id, valid, diagnostics, file }],
    summary: { files: 1, valid: valid ? 1 : 0, invalid: valid ? 0 : 1, errors, warnings: diagnostics.length - errors },
    archive: { root, files: [file], recordAt: () => undefined },
  };
}

export function formatReport(filePath: string, diagnostics: Diagnostic[], format: ReportFormat, color: boolean): string {
  const report = singleFileReport(filePath, diagnostics);
  if (format === 'json') return formatJson(report);
  if (format === 'github') return formatGithub(report) + formatPretty(report, { color });
  return formatPretty(report, { color });
}
