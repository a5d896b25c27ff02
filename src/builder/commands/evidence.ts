/**
 * evidence: the first step of the strict evidence pipeline (spec 2.2; docs/claim-gate.md). The builder hashes the
 * artifacts itself (local files, or URLs with a time-out and a size cap, streamed), compares each SHA-256 with the
 * expected hash the user names and its source, and writes an evidence input in the gate's vocabulary
 * (/api/evidence-input-schema.v1.json) with `computed` and `match` filled by the machine, `computed_by: "machine"`,
 * the command recorded and the verification session stamped. A value typed with --computed is `computed_by: "self_reported"`,
 * which the gate does not let raise the level above self-reported checks.
 */
import { randomUUID } from 'node:crypto';
import { basename } from 'node:path';
import { locateFindings } from '../../core/diagnostics/locate.ts';
import { EVIDENCE_INPUT_SCHEMA_ID } from '../../core/claim-gate/input.ts';
import { schemaErrors } from '../../core/schema/compile.ts';
import { translateSchemaErrors } from '../../core/schema/translate-errors.ts';
import type { JsonObject } from '../../core/record-chain/index.ts';
import { DEFAULT_ARTIFACT_MAX_BYTES, DEFAULT_ARTIFACT_TIMEOUT_SECONDS, hashLocalArtifact, hashUrlArtifact, type HashedArtifact } from '../artifacts.ts';
import { COLOR_OPTIONS, EXIT_NO, EXIT_OK, info, list, PROGRAM, str, UsageError, useColor, yesNo, type CommandSpec, type ParsedValues } from '../cli.ts';
import { builderConfig, CLIENT_NAME } from '../config.ts';
import { httpUrl } from '../net.ts';
import { formatReport } from '../report.ts';
import { readInput, readJsonObject } from './files.ts';
import { writeOutput } from './output.ts';

export const EVIDENCE_INPUT_SCHEMA = 'service.evidence-input.v1';
/** The marker on a hash entry: who produced `computed` (agreed with the gate, docs/claim-gate.md). */
export const COMPUTED_BY_MACHINE = 'machine';
export const COMPUTED_BY_HAND = 'self_reported';

const EVIDENCE_LISTS = [
  'scripts',
  'hashes',
  'bitcoin_checks',
  'digital_mirror_checks',
  'repository_snapshot_checks',
  'time_anchor_checks',
  'chronicle_checks',
  'nft_checks',
  'physical_checks',
] as const;

const HEX64 = /^[0-9a-f]{64}$/;

/** A hex SHA-256 as users write it (any case, optionally "sha256:"), lowercased; a UsageError otherwise. */
export function normalizeHex(value: string, option: string): string {
  const hex = value.trim().replace(/^sha-?256:/i, '').toLowerCase();
  if (!HEX64.test(hex)) throw new UsageError(`--${option}: "${value}" is not a SHA-256 (64 hexadecimal digits)`);
  return hex;
}

/** NAME=HEX, split at the last "=" (a URL may contain "="). */
export function nameAndHex(value: string, option: string): { name: string; hex: string } {
  const at = value.lastIndexOf('=');
  if (at <= 0) throw new UsageError(`--${option} takes ARTIFACT=SHA256 (found "${value}")`);
  return { name: value.slice(0, at), hex: normalizeHex(value.slice(at + 1), option) };
}

/** Lines of a sha256sum file: "<hex>  <name>" or "<hex> *<name>"; blank lines and # comments skipped. */
export function parseSha256Sums(text: string, file: string): Array<{ name: string; hex: string }> {
  const out: Array<{ name: string; hex: string }> = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '' || line.trimStart().startsWith('#')) return;
    const m = /^([0-9a-fA-F]{64})\s[ *](.+)$/.exec(line);
    if (!m) throw new UsageError(`--expected-file ${file}:${i + 1}: not a sha256sum line ("<64 hex digits>  <file name>")`);
    out.push({ name: m[2]!, hex: m[1]!.toLowerCase() });
  });
  return out;
}

/** The names an artifact answers to when expected hashes are looked up: as given, and its file name. */
function namesOf(artifact: string): string[] {
  let last = basename(artifact);
  if (/^https?:\/\//i.test(artifact)) {
    try {
      last = basename(new URL(artifact).pathname);
    } catch {
      /* a URL the user gave was already checked by httpUrl */
    }
  }
  return [...new Set([artifact, last].filter(Boolean))];
}

/**
 * Pairs every artifact with exactly one expected hash: an exact name first, else a unique file-name match.
 * Every expected hash must be used (a typo in a name is an error, not a silently unchecked artifact).
 */
export function pairExpected(artifacts: readonly string[], expected: ReadonlyArray<{ name: string; hex: string }>): Map<string, string> {
  const used = new Set<number>();
  const pairs = new Map<string, string>();
  for (const artifact of artifacts) {
    let index = expected.findIndex((e) => e.name === artifact);
    if (index === -1) {
      const names = namesOf(artifact);
      const candidates = expected.map((e, i) => ({ e, i })).filter(({ e }) => names.includes(e.name) || names.includes(basename(e.name)));
      if (candidates.length > 1 && new Set(candidates.map((c) => c.e.hex)).size > 1) {
        throw new UsageError(`more than one expected hash matches ${artifact}: name it exactly in --expected ${artifact}=SHA256`);
      }
      index = candidates[0]?.i ?? -1;
    }
    if (index === -1) throw new UsageError(`no expected hash for ${artifact}: give --expected ${artifact}=SHA256 or an --expected-file line for it`);
    used.add(index);
    pairs.set(artifact, expected[index]!.hex);
  }
  const unused = expected.filter((_, i) => !used.has(i));
  if (unused.length > 0) {
    throw new UsageError(`expected hash for ${unused.map((u) => u.name).join(', ')} matches no --artifact, --artifact-url or --computed: check the name`);
  }
  return pairs;
}

/** POSIX-shell quoting of one argument, for recording the command that ran. */
export function shellQuote(arg: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

export interface HashEntryInput {
  artifact: string;
  expected: string;
  /** Computed by this run (machine) or typed by the user (hand). */
  computed: { by: typeof COMPUTED_BY_MACHINE; hashed: HashedArtifact } | { by: typeof COMPUTED_BY_HAND; hex: string };
  expectedSource: string;
  expectedAuthority: string;
  artifactClass?: string;
  tool: string;
}

/** One entry of evidence.hashes, in the gate's vocabulary. */
export function hashEntry(h: HashEntryInput): JsonObject {
  const computed = h.computed.by === COMPUTED_BY_MACHINE ? h.computed.hashed.sha256 : h.computed.hex;
  const isUrl = /^https?:\/\//i.test(h.artifact);
  return {
    artifact: h.artifact,
    ...(h.artifactClass ? { artifact_class: h.artifactClass } : {}),
    algorithm: 'SHA-256',
    expected: h.expected,
    computed,
    expected_hash_source: h.expectedSource,
    expected_hash_authority_class: h.expectedAuthority,
    command:
      h.computed.by === COMPUTED_BY_MACHINE
        ? `node ${PROGRAM} evidence ${isUrl ? '--artifact-url' : '--artifact'} ${shellQuote(h.artifact)}`
        : 'typed by hand (--computed); not computed by the builder',
    match: computed === h.expected,
    computed_by: h.computed.by,
    ...(h.computed.by === COMPUTED_BY_MACHINE
      ? {
          computed_with: h.tool,
          size_bytes: h.computed.hashed.bytes,
          ...(h.computed.hashed.fetchedFrom && h.computed.hashed.fetchedFrom !== h.artifact ? { fetched_from: h.computed.hashed.fetchedFrom } : {}),
        }
      : {}),
  };
}

const obj = (v: unknown): JsonObject | undefined => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as JsonObject) : undefined);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** The options that make up the recorded command (paths and URLs as given; nothing secret is ever an option). */
function recordedCommand(values: ParsedValues): string {
  const parts = ['node', PROGRAM, 'evidence'];
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined || name === 'help' || name === 'color' || name === 'no-color') continue;
    for (const v of Array.isArray(value) ? value : [value]) {
      if (v === true) parts.push(`--${name}`);
      else if (typeof v === 'string') parts.push(`--${name}`, shellQuote(v));
    }
  }
  return parts.join(' ');
}

export const evidence: CommandSpec = {
  name: 'evidence',
  summary: 'hash artifacts yourself and write an evidence input for the Claim Gate (strict evidence claims only)',
  usage: 'evidence (--artifact FILE | --artifact-url URL)… (--expected NAME=SHA256… | --expected-file FILE) --expected-source TEXT --claim LEVEL… [options] [--out FILE]',
  options: [
    { name: 'artifact', type: 'string', multiple: true, value: 'FILE', description: 'a local artifact to hash (read as a stream)' },
    { name: 'artifact-url', type: 'string', multiple: true, value: 'URL', description: 'an artifact to fetch over http(s) and hash as it arrives' },
    { name: 'expected', type: 'string', multiple: true, value: 'NAME=HEX', description: "the expected SHA-256 of an artifact (NAME: the artifact as given, or its file name)" },
    { name: 'expected-file', type: 'string', value: 'FILE', description: 'expected hashes in sha256sum format ("<hex>  <name>" per line)' },
    { name: 'expected-source', type: 'string', value: 'TEXT', description: 'where the expected hashes come from (a URL or document), e.g. https://example.org/api/hashes.json' },
    {
      name: 'expected-authority',
      type: 'string',
      value: 'CLASS',
      description: 'what kind of source that is: canonical_manifest_hash, repository_manifest_hash, external_reference or unknown (default)',
    },
    { name: 'artifact-class', type: 'string', value: 'CLASS', description: 'canonical_mirror, repository_snapshot, evidence_package, chronicle_package or other (optional, for every artifact)' },
    {
      name: 'computed',
      type: 'string',
      multiple: true,
      value: 'NAME=HEX',
      description: 'a hash you computed yourself and type in (an artifact the builder cannot read); marked computed_by "self_reported"',
    },
    { name: 'claim', type: 'string', multiple: true, value: 'LEVEL', description: 'the level you ask the gate for (claims_requested_by_agent), e.g. V3' },
    { name: 'record-kind', type: 'string', value: 'KIND', description: 'requested_record_kind: echo_v3_with_verification_report (default), echo_v3, verification_report_v2 or test_record' },
    { name: 'agent-name', type: 'string', value: 'TEXT', description: 'your name (agent.name)' },
    { name: 'agent-model', type: 'string', value: 'TEXT', description: 'your model or system (agent.model_or_system)' },
    { name: 'solicited', type: 'string', value: 'yes|no', description: 'whether someone asked you to do this (provenance.solicited)' },
    { name: 'independence-class', type: 'string', value: 'CLASS', description: 'provenance.independence_class, e.g. human_solicited_agent_response' },
    { name: 'agency-level', type: 'string', value: 'LEVEL', description: 'provenance.agency_level, e.g. A1_human_gave_exact_url' },
    { name: 'limitation', type: 'string', multiple: true, value: 'TEXT', description: 'a limitation of what you checked' },
    { name: 'session-id', type: 'string', value: 'ID', description: 'verification_session.session_id (default: a new random id)' },
    { name: 'operator-type', type: 'string', value: 'TYPE', description: 'ai_agent (default), human, human_with_ai_agent or automated_script' },
    {
      name: 'content',
      type: 'string',
      value: 'FILE',
      description: 'an evidence input to start from (your other evidence, integrity declaration …); options take precedence',
    },
    { name: 'timeout', type: 'string', value: 'SECONDS', description: `time allowed for each --artifact-url transfer (default ${DEFAULT_ARTIFACT_TIMEOUT_SECONDS})` },
    { name: 'max-bytes', type: 'string', value: 'N', description: `largest --artifact-url body read (default ${DEFAULT_ARTIFACT_MAX_BYTES})` },
    { name: 'out', type: 'string', value: 'FILE', description: 'write the evidence input to FILE (default: standard output)' },
    ...COLOR_OPTIONS,
  ],
  notes: [
    'Every SHA-256 in the output was computed in this run by the builder ("computed_by": "machine", with the bytes counted), except those you typed with --computed ("computed_by": "self_reported"): the Claim Gate does not let a hand-typed hash raise the level above what self-reported checks allow. Hash entries of --content are kept only when the builder hashes that artifact again in this run (else they are marked "self_reported").',
    'The verification session (session id, start and finish time, the command that ran and what it computed) is stamped by the builder. Your integrity declaration (agent_integrity_declaration), your authority-boundary statements (evidence.echo_context, e.g. authority_boundary_recognized) and other evidence (scripts, bitcoin checks …) come from --content, in your own words: the gate allows no level above V0 without the boundary statement, and no report without the declaration.',
    'Exit status 1 when a computed hash differs from its expected hash: the file is still written (a mismatch is evidence too), and the gate will not allow a claim on it.',
    'Next: claim-gate --input evidence.json, then report.',
  ],
  examples: [
    'evidence --artifact dist/release-1.0.tar.gz --expected release-1.0.tar.gz=<64 hex> --expected-source https://example.org/api/hashes.json --expected-authority canonical_manifest_hash --claim V3 --agent-name my-model --solicited yes --independence-class human_solicited_agent_response --agency-level A1_human_gave_exact_url --limitation "one artifact only" --out evidence.json',
    'evidence --content my-evidence.json --artifact-url https://example.org/files/kit.tar.gz --expected-file SHA256SUMS --expected-source https://example.org/SHA256SUMS --claim V3 --out evidence.json',
  ],
  async run(values) {
    const startedAt = new Date().toISOString();
    const config = builderConfig();
    const tool = `${CLIENT_NAME} ${config.version}`;
    const contentPath = str(values, 'content');
    const input: JsonObject = contentPath ? readJsonObject(contentPath, 'content', 'a JSON object (an evidence input to start from)') : {};

    const files = list(values, 'artifact') ?? [];
    const urls = (list(values, 'artifact-url') ?? []).map((u) => httpUrl(u, 'artifact-url').toString());
    const hand = (list(values, 'computed') ?? []).map((v) => nameAndHex(v, 'computed'));
    // Hash entries of --content: hashed again when their artifact is a readable local file, else kept as hand-typed.
    const evidenceBase = obj(input.evidence) ?? {};
    const carried = (Array.isArray(evidenceBase.hashes) ? evidenceBase.hashes : []).map(obj).filter((h): h is JsonObject => h !== undefined);
    if (files.length + urls.length + hand.length + carried.length === 0) {
      throw new UsageError('give at least one --artifact FILE or --artifact-url URL to hash (or --computed NAME=HEX)');
    }
    const expectedList = (list(values, 'expected') ?? []).map((v) => nameAndHex(v, 'expected'));
    const expectedFile = str(values, 'expected-file');
    if (expectedFile) expectedList.push(...parseSha256Sums(readInput(expectedFile, 'expected-file').toString('utf8'), expectedFile));
    const newNames = [...files, ...urls, ...hand.map((h) => h.name)];
    if (newNames.length > 0 && expectedList.length === 0) throw new UsageError('give the expected hashes: --expected NAME=SHA256 or --expected-file FILE');
    const source = str(values, 'expected-source');
    if (newNames.length > 0 && !source) throw new UsageError('--expected-source is required: say where the expected hashes come from');
    const authority = str(values, 'expected-authority') ?? 'unknown';
    const expected = pairExpected(newNames, expectedList);

    const timeoutSeconds = Number(str(values, 'timeout') ?? DEFAULT_ARTIFACT_TIMEOUT_SECONDS);
    if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0) throw new UsageError(`--timeout takes a number of seconds (found "${str(values, 'timeout')}")`);
    const maxBytes = Number(str(values, 'max-bytes') ?? DEFAULT_ARTIFACT_MAX_BYTES);
    if (!Number.isSafeInteger(maxBytes) || maxBytes <= 0) throw new UsageError(`--max-bytes takes a positive whole number (found "${str(values, 'max-bytes')}")`);

    const entries: JsonObject[] = [];
    const actions: string[] = [];
    const common = { expectedSource: source ?? '', expectedAuthority: authority, tool, ...(str(values, 'artifact-class') ? { artifactClass: str(values, 'artifact-class')! } : {}) };
    for (const file of files) {
      const hashed = await hashLocalArtifact(file);
      entries.push(hashEntry({ artifact: file, expected: expected.get(file)!, computed: { by: COMPUTED_BY_MACHINE, hashed }, ...common }));
      actions.push(`computed SHA-256 of ${file} (${hashed.bytes} bytes, read by the builder): ${hashed.sha256}`);
    }
    for (const url of urls) {
      const hashed = await hashUrlArtifact(url, { timeoutSeconds, maxBytes });
      entries.push(hashEntry({ artifact: url, expected: expected.get(url)!, computed: { by: COMPUTED_BY_MACHINE, hashed }, ...common }));
      actions.push(`fetched ${hashed.fetchedFrom ?? url} and computed SHA-256 (${hashed.bytes} bytes): ${hashed.sha256}`);
    }
    for (const h of hand) {
      entries.push(hashEntry({ artifact: h.name, expected: expected.get(h.name)!, computed: { by: COMPUTED_BY_HAND, hex: h.hex }, ...common }));
      actions.push(`typed a SHA-256 for ${h.name} by hand (not computed by the builder)`);
    }
    for (const old of carried) {
      const artifact = typeof old.artifact === 'string' ? old.artifact : '';
      let hashed: HashedArtifact | undefined;
      if (artifact && !/^https?:\/\//i.test(artifact)) hashed = await hashLocalArtifact(artifact).catch(() => undefined);
      if (hashed && typeof old.expected === 'string') {
        entries.push(
          hashEntry({
            artifact,
            expected: old.expected.toLowerCase(),
            computed: { by: COMPUTED_BY_MACHINE, hashed },
            expectedSource: String(old.expected_hash_source ?? ''),
            expectedAuthority: String(old.expected_hash_authority_class ?? 'unknown'),
            ...(typeof old.artifact_class === 'string' ? { artifactClass: old.artifact_class } : {}),
            tool,
          }),
        );
        actions.push(`computed SHA-256 of ${artifact} (${hashed.bytes} bytes, read by the builder): ${hashed.sha256}`);
      } else {
        const { computed_with: _w, size_bytes: _s, fetched_from: _f, ...rest } = old;
        entries.push({ ...rest, computed_by: COMPUTED_BY_HAND });
      }
    }

    // The evidence input: --content first, options over it, the machine's parts last.
    const agent = { ...(obj(input.agent) ?? {}) };
    if (str(values, 'agent-name')) agent.name = str(values, 'agent-name');
    if (str(values, 'agent-model')) agent.model_or_system = str(values, 'agent-model');
    agent.tooling = [...new Set([...strings(agent.tooling), `${PROGRAM} ${config.version} (SHA-256)`])];
    const provenance = { ...(obj(input.provenance) ?? {}) };
    if (str(values, 'solicited')) provenance.solicited = yesNo(str(values, 'solicited')!, 'solicited');
    if (str(values, 'independence-class')) provenance.independence_class = str(values, 'independence-class');
    if (str(values, 'agency-level')) provenance.agency_level = str(values, 'agency-level');
    const evidenceOut: JsonObject = { ...evidenceBase };
    for (const name of EVIDENCE_LISTS) if (!Array.isArray(evidenceOut[name])) evidenceOut[name] = [];
    evidenceOut.hashes = entries;
    evidenceOut.echo_context = obj(evidenceBase.echo_context) ?? {};
    const claims = list(values, 'claim') ?? strings(input.claims_requested_by_agent);
    if (claims.length === 0) throw new UsageError('--claim is required: the level you ask the gate for (e.g. --claim V3)');
    const limitations = [...strings(input.limitations), ...(list(values, 'limitation') ?? [])];

    const base = obj(input.verification_session) ?? {};
    const session: JsonObject = {
      session_id: str(values, 'session-id') ?? `evidence-${randomUUID()}`,
      started_at: startedAt,
      finished_at: new Date().toISOString(),
      operator_type: str(values, 'operator-type') ?? (typeof base.operator_type === 'string' ? base.operator_type : 'ai_agent'),
      fresh_actions_performed: [...strings(base.fresh_actions_performed), `ran: ${recordedCommand(values)}`, ...actions],
      prior_reports_consulted: strings(base.prior_reports_consulted),
      examples_or_templates_used: strings(base.examples_or_templates_used),
      copied_values_from_examples: base.copied_values_from_examples === true,
      copied_values_from_prior_reports: base.copied_values_from_prior_reports === true,
      fresh_outputs_attached: true,
    };

    const { schema: _schema, ...rest } = input;
    const result: JsonObject = {
      schema: EVIDENCE_INPUT_SCHEMA,
      ...rest,
      agent,
      provenance,
      requested_record_kind: str(values, 'record-kind') ?? input.requested_record_kind ?? 'echo_v3_with_verification_report',
      evidence: evidenceOut,
      limitations,
      claims_requested_by_agent: claims,
      verification_session: session,
    };

    const outPath = str(values, 'out');
    const findings = translateSchemaErrors(schemaErrors(result, EVIDENCE_INPUT_SCHEMA_ID), {
      schemaName: 'evidence input',
      closedTopLevelHint: 'The top level of an evidence input is closed: remove these fields from --content.',
      conditionalHint: '',
    });
    if (findings.some((f) => f.severity === 'error')) {
      const text = JSON.stringify(result, null, 2) + '\n';
      process.stderr.write(formatReport(outPath ?? 'evidence.json', locateFindings(findings, text), 'pretty', useColor(values, process.stderr)));
      info('Nothing was written: give the missing parts as options or in --content, and run the command again.');
      return EXIT_NO;
    }
    writeOutput(outPath, JSON.stringify(result, null, 2) + '\n');
    const mismatched = entries.filter((e) => e.match === false);
    for (const e of entries) info(`${e.match === true ? 'match   ' : 'MISMATCH'} ${String(e.computed)}  ${String(e.artifact)}${e.computed_by === COMPUTED_BY_HAND ? '  (typed by hand)' : ''}`);
    if (mismatched.length > 0) {
      info(`${mismatched.length} of ${entries.length} hash${entries.length === 1 ? '' : 'es'} differ from the expected value: the gate will allow no claim on ${mismatched.length === 1 ? 'it' : 'them'}.`);
    }
    info(`next: claim-gate --input ${outPath ?? 'FILE'}`);
    return mismatched.length > 0 ? EXIT_NO : EXIT_OK;
  },
};
