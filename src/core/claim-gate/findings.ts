/**
 * The gate's verdict in plain words, one line per finding: what is allowed, each downgrade with its reason, the
 * missing evidence, the blocking failures. The builder prints it, the gateway's 422 body and the archive
 * validator's messages carry it: every caller says the same thing the same way.
 */
import type { ClaimGateOutput } from './output.ts';

/** A finding as one sentence: its own full stop kept, one added otherwise. */
const sentence = (text: string): string => (/[.!?]$/.test(text) ? text : `${text}.`);

export function gateFindings(output: ClaimGateOutput): string[] {
  const lines: string[] = [];
  const components = Object.entries(output.allowed_component_levels).map(([k, v]) => `${k} ${v}`).join(', ');
  if (output.status === 'FAIL') {
    lines.push('Claim Gate FAIL: the input could not be evaluated; no verification claim may be made.');
  } else {
    const label = output.allowed_protocol_scope_label !== output.allowed_protocol_level ? ` (${output.allowed_protocol_scope_label})` : '';
    lines.push(`Claim Gate ${output.status}: allowed protocol level ${output.allowed_protocol_level}${label}, requested ${output.requested_protocol_level}; verification_scope_label ${output.verification_scope_label}.`);
    if (components) lines.push(`Allowed component levels: ${components}.`);
    if (output.evidence_supports_protocol_level !== output.allowed_protocol_level && output.blocking_failures.length === 0) {
      lines.push(`The evidence alone would support ${output.evidence_supports_protocol_level}; that is not an allowance.`);
    }
  }
  for (const d of output.required_downgrades) lines.push(sentence(`Downgrade ${d.from} → ${d.to} [${d.rule}]: ${d.reason}`));
  for (const f of output.forbidden_claims) lines.push(`Forbidden claim: "${f}".`);
  for (const m of output.missing_evidence) lines.push(sentence(`Missing evidence: ${m}`));
  for (const b of output.blocking_failures) lines.push(sentence(`Blocking failure: ${b}`));
  return lines;
}
