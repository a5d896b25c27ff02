/**
 * The builder's small command framework: option specs that drive both parsing (node:util parseArgs, strict) and
 * each command's --help, one exit-code convention, and output helpers.
 *
 * Exit status everywhere: 0 success; 1 the answer is "no" (invalid submission, forged receipt, not yet included,
 * rejected by the gateway); 2 usage, input/output, network or internal error.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { parseArgs } from 'node:util';
import { closest } from '../core/util/closest.ts';

export const EXIT_OK = 0;
export const EXIT_NO = 1;
export const EXIT_ERROR = 2;

export const PROGRAM = 'record-chain-builder.mjs';

/** A problem with how the command was called, or with its environment; exits 2. */
export class UsageError extends Error {}

export interface OptionSpec {
  name: string;
  type: 'string' | 'boolean';
  multiple?: boolean;
  /** Placeholder shown in help, e.g. DIR, FILE, TEXT. */
  value?: string;
  /** Shown as "(required)" in help; checked by the command (a --content file may supply the field instead). */
  required?: boolean;
  description: string;
}

export interface CommandSpec {
  name: string;
  summary: string;
  usage: string;
  options: readonly OptionSpec[];
  /** Extra paragraphs after the options. */
  notes?: readonly string[];
  examples: readonly string[];
  run(values: ParsedValues): Promise<number>;
}

export type ParsedValues = Record<string, string | boolean | string[] | boolean[] | undefined>;

export const HELP_OPTION: OptionSpec = { name: 'help', type: 'boolean', description: 'show this help' };

export function parseCommandArgs(spec: CommandSpec, argv: readonly string[]): ParsedValues {
  const options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }> = {};
  for (const o of [...spec.options, HELP_OPTION]) {
    options[o.name] = { type: o.type, ...(o.multiple ? { multiple: true } : {}), ...(o.name === 'help' ? { short: 'h' } : {}) };
  }
  try {
    const { values, positionals } = parseArgs({ args: [...argv], options, strict: true, allowPositionals: true });
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}" (options start with --)`);
    return values as ParsedValues;
  } catch (err) {
    if (err instanceof UsageError) throw err;
    const message = (err as Error).message.replace(/\. To specify a positional argument starting with a '-'.*$/s, '');
    throw new UsageError(message + unknownOptionHint(spec, err as Error & { code?: string }));
  }
}

/** For an unknown option: the nearest option of the command (`--keydir` → did you mean --key-dir?), else nothing. */
function unknownOptionHint(spec: CommandSpec, err: Error & { code?: string }): string {
  if (err.code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return '';
  const m = /Unknown option '--([^'=]+)/.exec(err.message);
  if (!m) return '';
  const names = [...spec.options, HELP_OPTION].map((o) => o.name);
  const near = closest(m[1]!, names) ?? names.find((n) => n.replace(/-/g, '') === m[1]!.replace(/[-_]/g, '').toLowerCase());
  return near ? `: did you mean --${near}?` : '';
}

export function commandHelp(spec: CommandSpec): string {
  const rows = [...spec.options, HELP_OPTION].map((o) => {
    const left = `  --${o.name}${o.value ? ` ${o.value}` : ''}`;
    const tags = [o.required ? 'required' : '', o.multiple ? 'repeatable' : ''].filter(Boolean).join(', ');
    return { left, right: `${tags ? `(${tags}) ` : ''}${o.description}` };
  });
  const width = Math.min(36, Math.max(...rows.map((r) => r.left.length)) + 2);
  const lines = [
    `${PROGRAM} ${spec.name}: ${spec.summary}`,
    '',
    `Usage: node ${PROGRAM} ${spec.usage}`,
    '',
    'Options:',
    ...rows.map((r) => (r.left.length + 2 > width ? `${r.left}\n${' '.repeat(width)}${r.right}` : r.left.padEnd(width) + r.right)),
  ];
  for (const note of spec.notes ?? []) lines.push('', note);
  lines.push('', 'Exit status: 0 success, 1 no (invalid, forged, not included or rejected), 2 usage, input/output or network error.');
  lines.push('', 'Examples:', ...spec.examples.map((e) => `  node ${PROGRAM} ${e}`));
  return lines.join('\n') + '\n';
}

export function str(values: ParsedValues, name: string): string | undefined {
  const v = values[name];
  return typeof v === 'string' ? v : undefined;
}

export function list(values: ParsedValues, name: string): string[] | undefined {
  const v = values[name];
  return Array.isArray(v) ? (v as string[]) : undefined;
}

export function flag(values: ParsedValues, name: string): boolean {
  return values[name] === true;
}

export function requireStr(values: ParsedValues, name: string): string {
  const v = str(values, name);
  if (v === undefined || v === '') throw new UsageError(`--${name} is required`);
  return v;
}

export function yesNo(value: string, option: string): boolean {
  const v = value.trim().toLowerCase();
  if (v === 'yes' || v === 'true') return true;
  if (v === 'no' || v === 'false') return false;
  throw new UsageError(`--${option} takes yes or no (found "${value}")`);
}

/**
 * Where a command's output goes while it runs for someone else (the MCP server, src/mcp/run-command.ts): a command
 * run inside `captureOutput` writes to its sink, not to the process's streams (which carry the protocol on stdio).
 */
export interface OutputSink {
  out(text: string): void;
  info(text: string): void;
}
const sinks = new AsyncLocalStorage<OutputSink>();

export function captureOutput<T>(sink: OutputSink, fn: () => Promise<T>): Promise<T> {
  return sinks.run(sink, fn);
}

export function info(message: string): void {
  const text = message.endsWith('\n') ? message : message + '\n';
  const sink = sinks.getStore();
  if (sink) sink.info(text);
  else process.stderr.write(text);
}

export function out(text: string): void {
  const sink = sinks.getStore();
  if (sink) sink.out(text);
  else process.stdout.write(text);
}

/** Colour as the validate CLI decides it: --no-color, --color, else a terminal without NO_COLOR. */
export function useColor(values: ParsedValues, stream: NodeJS.WriteStream = process.stdout): boolean {
  if (flag(values, 'no-color')) return false;
  if (flag(values, 'color')) return true;
  return Boolean(stream.isTTY) && !process.env.NO_COLOR;
}

export const COLOR_OPTIONS: readonly OptionSpec[] = [
  { name: 'color', type: 'boolean', description: 'force colour on' },
  { name: 'no-color', type: 'boolean', description: 'force colour off (default: on for a terminal unless NO_COLOR is set)' },
];
