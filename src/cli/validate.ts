/**
 * `npm run validate -- [--root DIR] [--format pretty|json|github|markdown] [--changed [--base REF] | FILE…]`
 * Exit 0: no error. 1: some record is invalid. 2: usage or internal error.
 */
import { existsSync, statSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { recordsRoot } from '../core/config.ts';
import { ArchiveRootError } from '../core/archive/load-archive.ts';
import { isArchiveReadme } from '../core/archive/paths.ts';
import { validateArchive } from '../core/archive/validate-archive.ts';
import { formatPretty } from '../core/report/format-pretty.ts';
import type { RemovedRecord } from '../core/rules/change/removed-record.ts';
import { usePrecompiledValidators } from '../core/schema/precompiled.ts';
import { GitChangesError } from './lib/git-errors.ts';
// The other formats and git are loaded when asked for: a one-file check from an editor pays only for what it uses.

const HELP = `Validate the Echo record archive.

Usage: npm run validate -- [--root DIR] [--format pretty|json|github|markdown] [--changed [--base REF] | FILE...]

  --root DIR      archive root (default: $RECORDS_DIR, else records/)
  --format F      pretty (default): problems grouped by file, with a fix for each
                  json:   one JSON object on stdout, every file listed
                  github: GitHub Actions annotations (first ${10}), then the pretty report
                  markdown: a table of the records with each problem's place, rule and fix, and the facts
                          reviewers check (for a pull request's job summary or a comment)
  --changed       report only the files this branch adds or modifies (committed or not) since the merge base
                  with --base; a deleted or renamed record is an error (records have permanent URLs: mark a
                  record superseded or withdrawn instead)
  --base REF      what --changed compares with (default: the default branch, e.g. origin/main)
  --color / --no-color
                  force colour on or off (default: on for a terminal, off when NO_COLOR is set)
  -h, --help      show this help
  FILE...         report only these files (the whole archive is still read, for ids and linked reports)

Exit status: 0 no errors (warnings allowed), 1 some record is invalid, 2 usage or internal error.

Examples:
  npm run validate
  npm run validate -- records/2026/echo-2026-11-22-000001.json
  npm run validate -- --format json > report.json
  npm run validate -- --changed
  npm run -s validate -- --changed --base origin/main --format markdown >> "$GITHUB_STEP_SUMMARY"
`;

class UsageError extends Error {}

function fail(message: string): never {
  throw new UsageError(message);
}

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        root: { type: 'string' },
        format: { type: 'string', default: 'pretty' },
        changed: { type: 'boolean' },
        base: { type: 'string' },
        color: { type: 'boolean' },
        'no-color': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    fail((err as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const format = values.format;
  if (format !== 'pretty' && format !== 'json' && format !== 'github' && format !== 'markdown') {
    fail(`unknown --format "${format}": use pretty, json, github or markdown`);
  }
  const root = resolve(values.root ?? recordsRoot());
  if (values.base !== undefined && !values.changed) fail('--base applies to --changed');
  if (values.changed && positionals.length > 0) fail('use either --changed or FILE..., not both');

  let only: Set<string> | undefined;
  let removed: RemovedRecord[] = [];
  let subtitle: string | undefined;
  if (values.changed) {
    if (!existsSync(root) || !statSync(root).isDirectory()) fail(`the archive root ${root} is not a directory`);
    const { archiveChanges } = await import('./lib/git-changes.ts');
    const changes = archiveChanges(root, values.base);
    only = new Set(changes.changed);
    removed = changes.removed;
    const count = changes.changed.length + changes.removed.length;
    subtitle = `${count} file${count === 1 ? '' : 's'} of the archive added, modified, renamed or deleted since ${changes.base} (merge base ${changes.mergeBase.slice(0, 12)}).`;
    if (format === 'pretty' || format === 'github') process.stderr.write(`validate: ${subtitle}\n`);
  } else if (positionals.length > 0) {
    only = new Set();
    for (const arg of positionals) {
      const abs = resolve(arg);
      const rel = relative(root, abs);
      if (rel === '' || rel.startsWith('..') || resolve(root, rel) !== abs) fail(`${arg} is not inside the archive root ${root}`);
      if (!existsSync(abs) || !statSync(abs).isFile()) fail(`${arg} does not exist`);
      only.add(rel.split(sep).join('/'));
    }
  }

  // One record (an editor, a pre-commit hook): load the schema's compiled code instead of compiling it.
  if (only) usePrecompiledValidators();
  const report = await validateArchive(root, { only, removed });
  if (only && !values.changed) {
    // README.md is allowed in the archive but is not a record: naming it (e.g. from a changed-files list) is fine.
    const missing = [...only].filter((p) => !isArchiveReadme(p) && !report.files.some((f) => f.path === p));
    if (missing.length > 0) fail(`not part of the archive (hidden files are skipped): ${missing.join(', ')}`);
  }

  const color = values['no-color'] ? false : values.color ? true : Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;
  if (format === 'json') process.stdout.write((await import('../core/report/format-json.ts')).formatJson(report));
  else if (format === 'markdown') process.stdout.write((await import('../core/report/format-markdown.ts')).formatMarkdown(report, { subtitle }));
  else if (format === 'github') process.stdout.write((await import('../core/report/format-github.ts')).formatGithub(report) + formatPretty(report, { color }));
  else process.stdout.write(formatPretty(report, { color }));
  return report.summary.invalid > 0 ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    if (err instanceof UsageError || err instanceof ArchiveRootError || err instanceof GitChangesError) {
      process.stderr.write(`validate: ${err.message}\nRun with --help for usage.\n`);
    } else {
      process.stderr.write(`validate: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    }
    process.exitCode = 2;
  },
);
