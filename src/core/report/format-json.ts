/** The machine report (the CLI's `--format json` contract): every reported file, every diagnostic. */
import type { ArchiveReport } from '../archive/validate-archive.ts';
import { toWireDiagnostic } from '../diagnostics/diagnostic.ts';

export function toJsonReport(report: ArchiveReport) {
  return {
    summary: { ...report.summary },
    files: report.files.map((f) => ({
      path: f.path,
      id: f.id,
      valid: f.valid,
      diagnostics: f.diagnostics.map(toWireDiagnostic),
    })),
  };
}

export function formatJson(report: ArchiveReport): string {
  return JSON.stringify(toJsonReport(report), null, 2) + '\n';
}
