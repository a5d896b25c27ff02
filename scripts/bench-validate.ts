/**
 * `npm run bench:validate -- --records N [--runs K] [--dir DIR]`
 * `npm run bench:validate -- --single [--records N] [--runs K] [--dir DIR]`
 *
 * --single: what an editor or a pre-commit hook pays to check one record of an N-record archive (default 10,000):
 * the median of `npm run validate -- FILE` end to end (npm, Node start-up, loading, checking), of the same command
 * without npm (`node src/cli/validate.ts FILE`), and of the in-process core alone (validateArchive with `only`).
 *
 * Generates a deterministic synthetic archive of N records, then measures in the same process:
 *   floor    — glob, read and JSON.parse every file (what any validator must at least do);
 *   validate — the full core validation (strict reading, schema, every rule, positions for findings);
 * and, end to end, the `validate` command as a fresh process (start-up and schema compilation included).
 * Prints each run and the medians; the ratio validate/floor is the figure that matters on a noisy machine.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import fg from 'fast-glob';
import { validateArchive } from '../src/core/archive/validate-archive.ts';
import { warmSchemas } from '../src/core/schema/compile.ts';
import { generateArchive } from './lib/synthetic-archive.ts';

const { values } = parseArgs({
  options: {
    records: { type: 'string', default: '10000' },
    runs: { type: 'string', default: '3' },
    dir: { type: 'string' },
    single: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  console.log('Usage: npm run bench:validate -- [--single] [--records N (10000)] [--runs K (3; 9 with --single)] [--dir DIR (temporary)]');
  process.exit(0);
}
const n = Number(values.records);
const runs = Number(values.single && !process.argv.some((a) => a.startsWith('--runs')) ? '9' : values.runs);
if (!Number.isInteger(n) || n < 1 || !Number.isInteger(runs) || runs < 1) {
  console.error('bench:validate: --records and --runs take positive integers');
  process.exit(2);
}

const root = values.dir ?? mkdtempSync(join(tmpdir(), 'echo-bench-'));
const t0 = performance.now();
const gen = generateArchive(root, n);
console.log(`generated ${gen.files} records (${(gen.bytes / 1e6).toFixed(1)} MB, ${(gen.bytes / gen.files / 1024).toFixed(1)} KB each) in ${ms(performance.now() - t0)} under ${root}`);

if (values.single) {
  await single();
  if (!values.dir) rmSync(root, { recursive: true, force: true });
  process.exit(0);
}

/** One record of the archive, checked the ways a contributor's tools check it. */
async function single(): Promise<void> {
  const paths = (await fg('**/*.json', { cwd: root })).sort();
  const firstReport = await validateArchive(root, { only: new Set(paths) });
  const pick = firstReport.files.find((f) => f.valid)!.path;
  const file = join(root, pick);
  const timed = (command: string, args: string[]): number => {
    const start = performance.now();
    execFileSync(command, args, { stdio: 'ignore' });
    return performance.now() - start;
  };
  // The first run writes the schema's compiled code to node_modules/.cache when it is not there yet: not timed.
  timed('npm', ['run', '--silent', 'validate', '--', '--root', root, file]);
  const viaNpm: number[] = [];
  const viaNode: number[] = [];
  const core: number[] = [];
  for (let r = 1; r <= runs; r++) {
    const a = timed('npm', ['run', '--silent', 'validate', '--', '--root', root, file]);
    const b = timed(process.execPath, ['--max-semi-space-size=32', 'src/cli/validate.ts', '--root', root, file]);
    const start = performance.now();
    const report = await validateArchive(root, { only: new Set([pick]) });
    const c = performance.now() - start;
    if (report.summary.files !== 1 || report.summary.invalid !== 0) throw new Error('the picked record did not validate');
    viaNpm.push(a);
    viaNode.push(b);
    core.push(c);
    console.log(`run ${r}: npm run validate -- FILE ${ms(a)}  node src/cli/validate.ts FILE ${ms(b)}  in-process core ${ms(c)}`);
  }
  console.log(`one record (${pick}) of ${n} records, median of ${runs}:`);
  console.log(`  end to end through npm   ${ms(median(viaNpm))}   (target ≤ 400 ms on 2 cores)`);
  console.log(`  without npm              ${ms(median(viaNode))}`);
  console.log(`  in-process core          ${ms(median(core))}   (warm: schemas loaded, files cached)`);
}

async function floor(): Promise<number> {
  const start = performance.now();
  const paths = await fg('**/*', { cwd: root, onlyFiles: true });
  let members = 0;
  for (const p of paths) members += Object.keys(JSON.parse(readFileSync(join(root, p), 'utf8'))).length;
  if (members === 0) throw new Error('nothing parsed');
  return performance.now() - start;
}

async function validate(): Promise<{ time: number; valid: number; invalid: number }> {
  const start = performance.now();
  const report = await validateArchive(root);
  return { time: performance.now() - start, valid: report.summary.valid, invalid: report.summary.invalid };
}

function cli(): number {
  const start = performance.now();
  try {
    // The same command line as `npm run validate` (package.json), without npm's own start-up.
    execFileSync(process.execPath, ['--max-semi-space-size=32', 'src/cli/validate.ts', '--root', root, '--format', 'json'], {
      stdio: 'ignore',
    });
  } catch (err) {
    if ((err as { status?: number }).status !== 1) throw err; // 1 = some records invalid, expected here
  }
  return performance.now() - start;
}

warmSchemas();
await floor(); // warm the file cache so both sides read from memory
const floors: number[] = [];
const validates: number[] = [];
const ratios: number[] = [];
const clis: number[] = [];
let verdict = { valid: 0, invalid: 0 };
for (let r = 1; r <= runs; r++) {
  const f = await floor();
  const v = await validate();
  const c = cli();
  verdict = v;
  floors.push(f);
  validates.push(v.time);
  ratios.push(v.time / f);
  clis.push(c);
  console.log(`run ${r}: floor ${ms(f)}  validate ${ms(v.time)}  ratio ${(v.time / f).toFixed(2)}×  cli end-to-end ${ms(c)}`);
}
console.log(`verdicts: ${verdict.valid} valid, ${verdict.invalid} invalid`);
console.log(
  `median of ${runs}: floor ${ms(median(floors))}  validate ${ms(median(validates))}  ratio ${median(ratios).toFixed(2)}×  cli end-to-end ${ms(median(clis))}`,
);
console.log('targets (2 cores, N = 10,000): ratio ≤ 2.5×, cli end-to-end < 2000 ms; small N is dominated by start-up');
if (!values.dir) rmSync(root, { recursive: true, force: true });

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

function ms(x: number): string {
  return `${Math.round(x)} ms`;
}
