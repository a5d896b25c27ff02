/**
 * The record-chain builder: one file, no dependencies, Node ≥ 20. Bundled by scripts/build-builder.ts and served at
 * /downloads/record-chain-builder.mjs. It embeds the core's schemas and rules, so `doctor` gives the gateway's
 * verdict offline.
 *
 *   keygen · echo · verification · propagation · correction · context-insufficient · guardian-application ·
 *   guardian-retirement · classification-update · evidence · claim-gate · report · doctor · preflight · submit ·
 *   receipt · readback · monitor · mcp
 *
 * Exit status: 0 success; 1 no (invalid, forged, not yet included, rejected); 2 usage, input/output or network error.
 */
import { commandHelp, EXIT_ERROR, EXIT_OK, parseCommandArgs, PROGRAM, UsageError, type CommandSpec } from './cli.ts';
import { claimGate } from './commands/claim-gate.ts';
import { doctor } from './commands/doctor.ts';
import { evidence } from './commands/evidence.ts';
import { report } from './commands/report.ts';
import { preflight, submit } from './commands/gateway.ts';
import { keygen } from './commands/keygen.ts';
import { mcp } from './commands/mcp.ts';
import { monitor } from './commands/monitor.ts';
import { readback } from './commands/readback.ts';
import { receipt } from './commands/receipt.ts';
import { builderConfig } from './config.ts';
import { NetworkError } from './net.ts';
import { recordCommandSpecs } from './records.ts';

export const COMMANDS: readonly CommandSpec[] = [keygen, ...recordCommandSpecs, evidence, claimGate, report, doctor, preflight, submit, receipt, readback, monitor, mcp];

function overview(): string {
  const config = builderConfig();
  const width = Math.max(...COMMANDS.map((c) => c.name.length)) + 4;
  return [
    `${PROGRAM} ${config.version}: build, check, submit and read back record-chain submissions.`,
    '',
    `Usage: node ${PROGRAM} <command> [options]     node ${PROGRAM} <command> --help`,
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    '',
    'The path: keygen → echo|verification|propagation|correction|context-insufficient → doctor → preflight → submit',
    '(keep the receipt: intake only) → receipt (verify it) → readback (final inclusion, after the archive is published).',
    'Strict evidence claims: evidence (hash your artifacts) → claim-gate → report (builds the verification submission) → doctor → …',
    'Guardians (docs: /api/record-chain-guardian-application-schema.v1.json): guardian-application registers your key (its id and hash are',
    'derived from the key) → guardian-retirement (same key) retires it; classification-update proposes reclassifying an archived record.',
    'No guardian record creates authority or raises a verification level.',
    'Later: monitor --checkpoint (the archive\'s transparency log still extends the checkpoint readback saved).',
    '',
    `Site: ${config.baseUrl}   Gateway: ${config.gatewayUrl}`,
    'Records are the submitter\'s words: not authority, not amendment, not endorsement; the original inscribed records prevail.',
    '',
    'Exit status: 0 success, 1 no (invalid, forged, not included or rejected), 2 usage, input/output or network error.',
  ].join('\n') + '\n';
}

export async function main(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' ? COMMANDS.find((c) => c.name === rest[0]) : undefined;
    process.stdout.write(topic ? commandHelp(topic) : overview());
    return name === undefined ? EXIT_ERROR : EXIT_OK;
  }
  if (name === '--version' || name === 'version') {
    process.stdout.write(`${builderConfig().version}\n`);
    return EXIT_OK;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) throw new UsageError(`unknown command "${name}"; commands: ${COMMANDS.map((c) => c.name).join(', ')}`);
  const values = parseCommandArgs(command, rest);
  if (values.help === true) {
    process.stdout.write(commandHelp(command));
    return EXIT_OK;
  }
  return command.run(values);
}

export function runMain(argv: readonly string[]): void {
  main(argv).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      const command = argv[0] ?? '';
      if (err instanceof UsageError) {
        process.stderr.write(`${PROGRAM}: ${err.message}\nRun "node ${PROGRAM} ${command && COMMANDS.some((c) => c.name === command) ? command + ' ' : ''}--help" for usage.\n`);
      } else if (err instanceof NetworkError) {
        process.stderr.write(`${PROGRAM}: ${err.message}\n`);
      } else {
        process.stderr.write(`${PROGRAM}: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      }
      process.exitCode = EXIT_ERROR;
    },
  );
}
