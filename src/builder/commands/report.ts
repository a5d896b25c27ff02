/**
 * report: the report builder of the strict evidence pipeline (spec 2.2; docs/claim-gate.md). It runs the Claim Gate
 * on an evidence input and builds a signed record-chain verification submission that carries the evidence input, the
 * gate's own output and generated_by filled from the run, so that the gateway can run the gate again. Its claim never
 * exceeds the gate's: legacy_v_level is the allowed level unless a lower one is asked for, and a request for more is
 * refused with the gate's reasons. With --archive-dir it also writes the Echo v3 pair for a pull request to the
 * archive (archive-pair.ts).
 */
import { sameCanonical } from '../../core/canonical/jcs.ts';
import { evaluateClaimGate, gateFindings } from '../../core/claim-gate/index.ts';
import { claimExceedsGate } from '../../core/claim-gate/claim-check.ts';
import type { ClaimGateOutput } from '../../core/claim-gate/output.ts';
import {
  buildSubmission,
  canonicalHashRef,
  serializeSubmission,
  validateSubmissionText,
  validationResultOf,
  type ClaimGateAnswer,
  type JsonObject,
} from '../../core/record-chain/index.ts';
import { COLOR_OPTIONS, EXIT_NO, EXIT_OK, info, PROGRAM, requireStr, str, UsageError, useColor, type CommandSpec } from '../cli.ts';
import { builderConfig, CLIENT_NAME } from '../config.ts';
import { loadKeyDir } from '../keys.ts';
import { verificationRecordFromOptions, verificationRecordOptions } from '../records.ts';
import { formatReport } from '../report.ts';
import { ARCHIVE_PAIR_OPTIONS, writeArchivePair } from './archive-pair.ts';
import { readJsonObject } from './files.ts';
import { buildRefusal, completeClaim } from './report-policy.ts';
import { writeOutput } from './output.ts';
import { COMPUTED_BY_MACHINE, shellQuote } from './evidence.ts';

/** The gate's verdict in plain words, one line each: what `claim-gate` prints, for the report's own output. */
export function verdictLines(output: ClaimGateOutput): string[] {
  return answerLines({ status: output.status, allowed_protocol_level: output.allowed_protocol_level, reasons: gateFindings(output) });
}

/** The same lines for a Claim Gate answer (the gateway's, in preflight and a 422); `by` names who ran the gate. */
export function answerLines(answer: Pick<ClaimGateAnswer, 'status' | 'allowed_protocol_level' | 'reasons'>, by = ''): string[] {
  return [`claim gate${by}: ${answer.status}, allowed level ${answer.allowed_protocol_level}`, ...answer.reasons.map((r) => `  - ${r}`)];
}

/** The hashes of the evidence input as evidence pointers of the verification record (the submitter's list comes first). */
function hashPointers(input: JsonObject): string[] {
  const hashes = (input.evidence as { hashes?: unknown } | undefined)?.hashes;
  if (!Array.isArray(hashes)) return [];
  return hashes
    .filter((h): h is JsonObject => h !== null && typeof h === 'object')
    .map(
      (h) =>
        `SHA-256 of ${String(h.artifact)}: ${String(h.computed)} (${h.computed_by === COMPUTED_BY_MACHINE ? 'computed by the builder' : 'self-reported'}; expected ${String(h.expected)} from ${String(h.expected_hash_source ?? 'an unnamed source')}: ${h.match === true ? 'match' : 'no match'})`,
    );
}

export const report: CommandSpec = {
  name: 'report',
  summary: 'run the Claim Gate on an evidence input and build the signed verification submission from its answer',
  usage: 'report --input evidence.json --key-dir DIR [verification options] [--out FILE] [--archive-dir DIR …]',
  options: [
    { name: 'input', type: 'string', value: 'FILE', required: true, description: 'the evidence input (from the evidence command)' },
    { name: 'gate-output', type: 'string', value: 'FILE', description: 'the output claim-gate wrote for it: refused when it is not what the gate answers now' },
    { name: 'generated-at', type: 'string', value: 'TIME', description: 'generated_by.generated_at_utc (default: now; give it to rebuild the same submission)' },
    ...verificationRecordOptions,
    ...ARCHIVE_PAIR_OPTIONS,
    ...COLOR_OPTIONS,
  ],
  notes: [
    'The gate runs here, on the evidence input as it is: the submission carries the evidence input, the gate\'s output unchanged, and generated_by (validation_command, validation_result PASS or FAIL from the gate\'s status, the SHA-256 of both, the builder and its version). The gateway runs the same gate again and refuses the submission if anything differs.',
    'The claim never exceeds the gate\'s: verification_claim.legacy_v_level is the allowed level, or the lower --legacy-v-level you give. Asking for more is refused with the gate\'s reasons (exit 1). The rest of the claim (digital profile, coverage, limitations, what is not claimed) is yours, as in the verification command: keep it within what the gate allowed. The report-builder policy (/api/report-builder-policy.json) adds to it the evidence input\'s limitations, every downgrade with its reason, and the gate\'s forbidden claims as claims not made; and it builds no report when the gate finds a blocking failure (exit 1, with the reasons).',
    'Next: doctor --file FILE, preflight --file FILE, submit --file FILE --receipt-out receipt.json.',
  ],
  examples: [
    'report --input evidence.json --key-dir ~/.record-chain --agent-name my-model --agent-provider my-lab --subject "SHA-256 of release 1.0" --summary "The builder hashed the archive; it matches the manifest." --digital-profile integrity_checked --coverage-scope minimal_single_check --covered "release-1.0.tar.gz" --limitation "one artifact only" --claim-not-made "no claim about other releases" --corrections-checked no --out verification.json',
  ],
  async run(values) {
    const inputPath = requireStr(values, 'input');
    const keyDir = str(values, 'key-dir');
    if (!keyDir) throw new UsageError('--key-dir is required (create one with "keygen --key-dir DIR")');
    const evidenceInput = readJsonObject(inputPath, 'input', 'an evidence input (a JSON object)') as JsonObject;

    const output = evaluateClaimGate(evidenceInput);
    const gatePath = str(values, 'gate-output');
    if (gatePath) {
      const given = readJsonObject(gatePath, 'gate-output', 'a claim gate output (a JSON object)');
      if (!sameCanonical(given, output)) {
        info(`--gate-output ${gatePath} is not what the Claim Gate answers for ${inputPath} now (was the evidence input or the file changed?). Nothing was written.`);
        for (const line of verdictLines(output)) info(line);
        return EXIT_NO;
      }
    }

    const blocking = buildRefusal(output);
    if (blocking.length > 0) {
      info(`refused: the Claim Gate found ${blocking.length === 1 ? 'a blocking failure' : 'blocking failures'}, and the report-builder policy (/api/report-builder-policy.json) builds no report then. Nothing was written.`);
      for (const line of verdictLines(output)) info(line);
      return EXIT_NO;
    }

    const record = verificationRecordFromOptions(values);
    const claim = record.verification_claim as JsonObject;
    const asked = typeof claim.legacy_v_level === 'string' ? claim.legacy_v_level : undefined;
    const allowed = output.allowed_protocol_level;
    const excess = claimExceedsGate({ verification_level: asked }, output);
    if (excess.length > 0) {
      info(`refused: --legacy-v-level ${asked}: ${excess.join('; ')} for this evidence. Nothing was written.`);
      for (const line of verdictLines(output)) info(line);
      return EXIT_NO;
    }
    // The gate allows at most V5 for new work (DECISIONS 11); "none" means no level may be declared at all.
    if (asked === undefined && allowed !== 'none') claim.legacy_v_level = allowed;

    completeClaim(claim, evidenceInput, output);
    const validationResult = validationResultOf(output);
    const config = builderConfig();
    record.evidence = [...((record.evidence as string[] | undefined) ?? []), ...hashPointers(evidenceInput)];
    record.evidence_input = evidenceInput;
    record.claim_gate_output = output as unknown as JsonObject;
    record.generated_by = {
      builder_version: `${CLIENT_NAME} ${config.version}`,
      report_builder: CLIENT_NAME,
      evidence_input: canonicalHashRef(evidenceInput) ?? inputPath,
      claim_gate_output: canonicalHashRef(output) ?? 'embedded in this record',
      generated_at_utc: str(values, 'generated-at') ?? new Date().toISOString(),
      validation_command: `node ${PROGRAM} claim-gate --input ${shellQuote(inputPath)}`,
      validation_result: validationResult,
    };
    if ((record.evidence as string[]).length === 0) delete record.evidence;

    const keys = loadKeyDir(keyDir);
    const submission = buildSubmission('verification', record, keys, { name: CLIENT_NAME, version: config.version });
    const text = serializeSubmission(submission);
    const outPath = str(values, 'out');
    const judged = validateSubmissionText(text);
    if (!judged.valid) {
      process.stderr.write(formatReport(outPath ?? 'verification-submission.json', judged.diagnostics, 'pretty', useColor(values, process.stderr)));
      info('Nothing was written: fix the options above and run the command again.');
      return EXIT_NO;
    }
    const pair = writeArchivePair(values, { submission, output, evidenceInput });
    writeOutput(outPath, text);
    for (const line of verdictLines(output)) info(line);
    info(`generated_by.validation_result ${validationResult}; legacy_v_level ${typeof claim.legacy_v_level === 'string' ? claim.legacy_v_level : '(none: no strict evidence claim)'}`);
    for (const written of pair) info(`wrote ${written} (for the archive)`);
    info(`record_type verification, submission_sha256 ${judged.submissionSha256}`);
    const shown = outPath ?? 'FILE';
    info(`next: doctor --file ${shown}, then preflight --file ${shown} and submit --file ${shown} --receipt-out receipt.json`);
    return EXIT_OK;
  },
};

