/**
 * `npm run intake` (src/intake/cli.ts, runIntake: the command's whole code path) with a fixed clock, so that runs of
 * the fault tests can be compared byte for byte: argv after the script are the command's. RECORDS_DIR and
 * GATEWAY_DATA_DIR come from the environment, as for the real command.
 */
import { runIntake } from '../../src/intake/cli.ts';

const code = await runIntake(process.argv.slice(2), {
  out: (line) => process.stdout.write(line + '\n'),
  err: (line) => process.stderr.write(line + '\n'),
  env: process.env,
  now: () => new Date('2026-11-22T12:00:00Z'),
});
process.exitCode = code;
