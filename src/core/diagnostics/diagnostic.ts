/**
 * The one shape every problem takes, whichever check found it. Checks produce findings (no position yet);
 * the pipeline places them in the source text, so a rule never needs to know about lines and columns.
 */
export type Severity = 'error' | 'warning';

export interface Finding {
  /** Stable rule id, e.g. `schema/required`, `cross/c0-assessment`, `file/duplicate-id`. */
  rule: string;
  severity: Severity;
  /** What is wrong, in words a contributor understands without opening a schema. */
  message: string;
  /** What to change. */
  hint: string;
  /** RFC 6901 JSON pointer to the offending place ("" is the whole record). */
  pointer: string;
  /** Point at the member's key rather than its value (for "this field is not allowed"-style problems). */
  at?: 'key' | 'value';
  /** Set by checks that know the position themselves (syntax errors). */
  line?: number;
  column?: number;
}

export interface Diagnostic extends Finding {
  line: number;
  column: number;
}

export function isError(d: { severity: Severity }): boolean {
  return d.severity === 'error';
}

/** Order diagnostics as a reader scans a file: top to bottom, then by rule id. */
export function byPosition(a: Diagnostic, b: Diagnostic): number {
  return a.line - b.line || a.column - b.column || a.rule.localeCompare(b.rule);
}

/** A diagnostic as it leaves the process (the validate CLI's JSON report, the gateway's answers): fixed fields, fixed order. */
export interface WireDiagnostic {
  severity: Severity;
  rule: string;
  message: string;
  pointer: string;
  line: number;
  column: number;
  hint: string;
}

export function toWireDiagnostic(d: Diagnostic): WireDiagnostic {
  return { severity: d.severity, rule: d.rule, message: d.message, pointer: d.pointer, line: d.line, column: d.column, hint: d.hint };
}
