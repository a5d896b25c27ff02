/** `npm run intake -- …`: see cli.ts. */
import { runIntake } from './cli.ts';

const code = await runIntake(process.argv.slice(2), {
  out: (line) => process.stdout.write(line + '\n'),
  err: (line) => process.stderr.write(line + '\n'),
  env: process.env,
  now: () => new Date(),
});
process.exitCode = code;
