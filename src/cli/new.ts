/**
 * `npm run new` — start a record, or convert between a record and its Markdown draft.
 *
 *   npm run new -- [--kind KIND] [--date YYYY-MM-DD] [--out FILE]          scaffold a record with placeholders
 *   npm run new -- --from DRAFT.md [--date YYYY-MM-DD] [--out FILE [--replace]]   a Markdown draft → a record
 *   npm run new -- --to-md RECORD.json [--out DRAFT.md] [--replace]          a record → its Markdown draft
 *
 * The logic lives in the core: numbering (core/archive/numbering.ts), the scaffold (core/record/scaffold.ts), drafts
 * (core/draft/), the canonical layout (core/record/canonical-layout.ts) and validation (core/archive/).
 * Exit 0: done. 1: the draft or record has problems (nothing written). 2: usage or internal error.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { ArchiveRootError, loadArchive } from '../core/archive/load-archive.ts';
import { createNextRecord } from '../core/archive/numbering.ts';
import { archiveDateOf, recordIdOf } from '../core/archive/paths.ts';
import { summarize, type FileReport } from '../core/archive/validate-archive.ts';
import { recordsRoot } from '../core/config.ts';
import { isError, type Diagnostic } from '../core/diagnostics/diagnostic.ts';
import { recordToDraft } from '../core/draft/draft.ts';
import { draftJudge } from '../core/draft/judge-draft.ts';
import { parseStrictJson } from '../core/json/strict-parse.ts';
import { canonicalRecordText } from '../core/record/canonical-layout.ts';
import { findPlaceholders } from '../core/record/placeholder.ts';
import { scaffoldRecord, UnknownKindError } from '../core/record/scaffold.ts';
import { RECORD_KINDS } from '../core/record/vocabulary.ts';
import { formatPretty } from '../core/report/format-pretty.ts';
import { MAX_RECORD_BYTES } from '../core/rules/file/too-large.ts';
import { ECHO_RECORD_SCHEMA_ID, schemaDocument } from '../core/schema/documents.ts';
import type { JsonObject } from '../core/rules/rule.ts';

const HELP = `Start an Echo record, or convert between a record and its Markdown draft.

Usage:
  npm run new -- [--kind KIND] [--date YYYY-MM-DD] [--out FILE]
      Scaffold records/<year>/echo-<date>-<next number>.json for KIND (default echo_v3): constant fields filled
      in, a "<TODO: …>" placeholder wherever you must answer. npm run validate lists what is left to fill.
  npm run new -- --from DRAFT.md [--date YYYY-MM-DD] [--out FILE [--replace]]
      Convert a Markdown draft (YAML front matter with the record's fields, the Markdown body is the echo) into a
      record under the next number (or FILE), after validating it; problems are reported at the draft's lines. A
      draft without origin_classification gets the one derived from its discovery provenance (not with --replace).
  npm run new -- --to-md RECORD.json [--out DRAFT.md] [--replace]
      Write a record as a Markdown draft (default drafts/<id>.md), to edit it and convert it back with --from.
      Only an Echo record converts: any other JSON (records/.tlog/, a submission, an index) is refused.

Options:
  --kind KIND     ${RECORD_KINDS.join(', ')}
  --date DATE     the archive date in the file name (default: today, UTC)
  --out FILE      write this file instead of the default; an existing file is never replaced without --replace
  --replace       allow --out to replace an existing file (the edit path: --to-md, edit, --from … --out RECORD --replace)
  --root DIR      archive root (default: $RECORDS_DIR, else records/)
  -h, --help      show this help

Exit status: 0 written, 1 the draft or record has problems (nothing written), 2 usage or internal error.
`;

class UsageError extends Error {}

function fail(message: string): never {
  throw new UsageError(message);
}

const shown = (path: string) => relative(process.cwd(), path).split(sep).join('/') || '.';

function todayUtc(): string {
  return new Date().toISOString().slice(0, 10);
}

function checkedDate(value: string | undefined): string {
  if (value === undefined) return todayUtc();
  if (archiveDateOf(`echo-${value}-000001`) !== value) fail(`--date ${value} is not a date written YYYY-MM-DD`);
  return value;
}

/** Path from the archive root of FILE, which must be inside it. */
function archivePathOf(root: string, file: string): string {
  const rel = relative(root, resolve(file));
  if (rel === '' || rel.startsWith('..') || resolve(root, rel) !== resolve(file)) fail(`${file} is not inside the archive root ${root}`);
  return rel.split(sep).join('/');
}

/** Writes a whole file: exclusively, or (replace) through a temporary file renamed over the old one. */
function writeWhole(path: string, text: string, replace: boolean): void {
  mkdirSync(dirname(path), { recursive: true });
  if (!replace) {
    try {
      writeFileSync(path, text, { flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') fail(`${shown(path)} exists; it is never replaced without --replace`);
      throw err;
    }
    return;
  }
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  writeFileSync(temp, text, { flag: 'wx' });
  renameSync(temp, path);
}

function readLimited(file: string, what: string): Buffer {
  const stat = statSync(file, { throwIfNoEntry: false });
  if (!stat?.isFile()) fail(`${what} ${file} does not exist`);
  if (stat.size > MAX_RECORD_BYTES) fail(`${what} ${file} is larger than ${MAX_RECORD_BYTES} bytes, the limit of a record`);
  return readFileSync(file);
}

/** Problems of one file, printed as the validator prints them. */
function printProblems(file: string, diagnostics: Diagnostic[]): void {
  const path = resolve(file);
  const name = basename(path);
  const files: FileReport[] = [{ path: name, id: name, valid: !diagnostics.some(isError), diagnostics, file: { path: name, id: name, size: 0 } }];
  const color = Boolean(process.stderr.isTTY) && !process.env.NO_COLOR;
  process.stderr.write(formatPretty({ root: dirname(path), files, summary: summarize(files) }, { color }));
}

function rootOf(value: string | undefined): string {
  const root = resolve(value ?? recordsRoot());
  if (!statSync(root, { throwIfNoEntry: false })?.isDirectory()) throw new ArchiveRootError(`the archive root ${root} is not a directory`);
  return root;
}

function scaffold(root: string, kind: string, date: string, out: string | undefined): number {
  let record: JsonObject;
  try {
    record = scaffoldRecord(kind);
  } catch (err) {
    if (err instanceof UnknownKindError) fail(err.message);
    throw err;
  }
  const text = canonicalRecordText(record);
  let target: string;
  if (out !== undefined) {
    target = resolve(out);
    archivePathOf(root, target);
    writeWhole(target, text, false);
  } else {
    target = join(root, createNextRecord(root, date, () => text).path);
  }
  const todo = findPlaceholders(record).length;
  process.stdout.write(
    `Created ${shown(target)} (${kind}), with ${todo} placeholder${todo === 1 ? '' : 's'} "<TODO: …>" to fill in.\n\n` +
      `Next:\n` +
      `  1. Replace every "<TODO: …>" (each says what to write). For long text, edit it as Markdown instead:\n` +
      `       npm run new -- --to-md ${shown(target)}\n` +
      `  2. Check it:  npm run validate -- ${shown(target)}\n` +
      `  3. Commit it and open a pull request (CONTRIBUTING.md).\n`,
  );
  return 0;
}

async function fromDraft(root: string, draftFile: string, date: string, out: string | undefined, replace: boolean): Promise<number> {
  // A new record gets origin_classification derived from the draft when the draft has none (DECISIONS 22); the edit
  // path (--replace) keeps the record's fields as written.
  const { read, judge, derivedOrigin } = draftJudge(readLimited(draftFile, 'the draft').toString('utf8'), { deriveOrigin: !replace });
  if (!read.record || read.findings.some(isError)) {
    printProblems(draftFile, read.findings);
    process.stderr.write('Nothing was written: correct the draft and run the command again.\n');
    return 1;
  }
  const target = out === undefined ? undefined : archivePathOf(root, out);
  if (target !== undefined && !replace && existsSync(join(root, target))) fail(`${out} exists; it is never replaced without --replace`);
  const archive = await loadArchive(root, { only: new Set(target === undefined ? [] : [target]) });

  // Judged as the file it will be (each number tried, when numbering): problems are placed in the draft.
  let problems: Diagnostic[] = [];
  const textFor = (path: string): string => {
    const verdict = judge(archive, path);
    problems = verdict.diagnostics;
    if (!verdict.valid || verdict.text === undefined) throw new InvalidDraft();
    if (Buffer.byteLength(verdict.text) > MAX_RECORD_BYTES) fail(`the record would be larger than ${MAX_RECORD_BYTES} bytes, the limit of a record`);
    return verdict.text;
  };
  let written: string;
  try {
    if (target !== undefined) {
      writeWhole(join(root, target), textFor(target), replace);
      written = join(root, target);
    } else {
      written = join(root, createNextRecord(root, date, textFor).path);
    }
  } catch (err) {
    if (!(err instanceof InvalidDraft)) throw err;
    printProblems(draftFile, problems);
    process.stderr.write('Nothing was written: correct the draft and run the command again.\n');
    return 1;
  }
  if (problems.length > 0) printProblems(draftFile, problems);
  process.stdout.write(
    `Created ${shown(written)} from ${shown(draftFile)} (valid${problems.length > 0 ? ', with warnings above' : ''}).\n\n` +
      (derivedOrigin
        ? `The draft has no origin_classification, so the record carries the one derived from its discovery provenance and\n` +
          `independence fields ("unknown" where the draft says nothing). Check it, and correct any value you know better.\n\n`
        : '') +
      `Next: commit ${shown(written)} (the draft stays yours; only the JSON record goes into the archive) and open a pull request.\n`,
  );
  return 0;
}

class InvalidDraft extends Error {}

/** The `schema` every Echo record carries (the const of the record schema's `schema` property). */
const ECHO_SCHEMA = String((schemaDocument(ECHO_RECORD_SCHEMA_ID)?.properties as { schema?: { const?: unknown } } | undefined)?.schema?.const ?? 'service.echo.v3');

/**
 * Why FILE is not an Echo record (so it has no draft), or undefined when it is one: its `schema` is the record's,
 * or (a record whose `schema` was lost or mistyped) it has no other `schema` and carries `record_kind` or
 * `echo_version`. Anything else (the transparency log's state in records/.tlog/, a submission, an index) is refused.
 */
function notARecord(file: string, value: JsonObject): string | undefined {
  const schema = value.schema;
  if (schema === ECHO_SCHEMA) return undefined;
  if (typeof schema !== 'string' && (Object.hasOwn(value, 'record_kind') || Object.hasOwn(value, 'echo_version'))) return undefined;
  const what = resolve(file).split(sep).includes('.tlog')
    ? ": it is the transparency log's state (records/.tlog/), which only npm run log:append writes; it is never edited by hand"
    : typeof schema === 'string'
      ? `: its "schema" is "${schema}", not "${ECHO_SCHEMA}"${schema.startsWith('service.record-chain-') ? ' (a record-chain document: the record-chain builder checks it, with doctor)' : ''}`
      : `: it has no "schema": "${ECHO_SCHEMA}" (nor record_kind or echo_version)`;
  return `${file} is not an Echo record${what}. --to-md converts only records (records/<year>/echo-….json); nothing was written.`;
}

function toMarkdown(recordFile: string, out: string | undefined, replace: boolean): number {
  const parsed = parseStrictJson(readLimited(recordFile, 'the record'));
  if (!parsed.isObject || parsed.findings.length > 0) {
    printProblems(recordFile, parsed.findings.map((f) => ({ ...f, line: f.line ?? 1, column: f.column ?? 1 })));
    process.stderr.write('The record is not strict JSON with an object at the top level, so it has no draft: correct it first.\n');
    return 1;
  }
  const refused = notARecord(recordFile, parsed.value as JsonObject);
  if (refused) fail(refused);
  const target = resolve(out ?? join('drafts', `${recordIdOf(basename(recordFile))}.md`));
  writeWhole(target, recordToDraft(parsed.value as JsonObject), replace);
  process.stdout.write(
    `Wrote ${shown(target)}. Edit it (the fields in the front matter, the echo as Markdown below it), then convert it back:\n` +
      `  npm run new -- --from ${shown(target)} --out ${shown(recordFile)} --replace\n`,
  );
  return 0;
}

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: false,
      options: {
        kind: { type: 'string' },
        date: { type: 'string' },
        from: { type: 'string' },
        'to-md': { type: 'string' },
        out: { type: 'string' },
        replace: { type: 'boolean' },
        root: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    fail((err as Error).message);
  }
  const { values } = parsed;
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  if (values.from !== undefined && values['to-md'] !== undefined) fail('use either --from or --to-md, not both');
  if (values['to-md'] !== undefined) {
    if (values.kind !== undefined || values.date !== undefined) fail('--to-md takes only --out and --replace');
    return toMarkdown(values['to-md'], values.out, values.replace ?? false);
  }
  const root = rootOf(values.root);
  const date = checkedDate(values.date);
  if (values.replace && values.out === undefined) fail('--replace needs --out: a new record never replaces anything');
  if (values.from !== undefined) {
    if (values.kind !== undefined) fail('--kind does not apply to --from: the draft says its record_kind');
    return fromDraft(root, values.from, date, values.out, values.replace ?? false);
  }
  if (values.replace) fail('--replace applies to --from and --to-md only: a scaffold never replaces a file');
  return scaffold(root, values.kind ?? 'echo_v3', date, values.out);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    if (err instanceof UsageError || err instanceof ArchiveRootError) {
      process.stderr.write(`new: ${err.message}\nRun with --help for usage.\n`);
    } else {
      process.stderr.write(`new: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    }
    process.exitCode = 2;
  },
);
