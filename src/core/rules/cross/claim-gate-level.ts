import type { Finding } from '../../diagnostics/diagnostic.ts';
import { levelExceedsGate, scopeLabelExceedsGate } from '../../claim-gate/claim-check.ts';
import { compareLevels, levelRank, scopeLabelWidth } from '../../claim-gate/levels.ts';
import { PUBLISHED_CLAIM_GATE_RULES } from '../../claim-gate/rules-document.ts';
import { downgradesSentence, recordGateOutput } from '../../record/gate-output.ts';
import { asObject, asString, violation, type RecordRule } from '../rule.ts';

const ID = 'cross/claim-gate-level';

/** Scope labels a level may carry (lowest_level at or below it), narrowest first: for the hint. */
function labelsUpTo(level: string): string[] {
  return PUBLISHED_CLAIM_GATE_RULES.scope_labels.widths
    .filter((w) => w.lowest_level !== null && (compareLevels(w.lowest_level, level) ?? 1) <= 0)
    .map((w) => w.label);
}

/**
 * Spec section 7: a record's claim_gate_output "may carry status, allowed_protocol_level and a list of
 * required_downgrades, which reduce the claim that may be made". So the record may not claim more than its own gate
 * output allows: verification_level at most allowed_protocol_level. At V2 and V3 that is all: which
 * verification_scope_label the record may carry there is decided by spec 2.1 rules 4 and 5 (cross/v2-scope-label,
 * cross/v3-scope-label), and a gate output never makes a label they allow invalid (DECISIONS 20). At other levels the
 * label may be no wider than the gate's label, nor one that needs a higher level than the gate allows. Level and
 * label orders are the published Claim Gate rules (src/core/claim-gate/levels.ts).
 */
export const claimGateLevel: RecordRule = {
  id: ID,
  summary:
    "verification_level claims no more than the record's claim_gate_output allows: its downgrades reduce the claim that may be made (spec 7); outside V2 and V3 (whose labels spec 2.1 rules 4 and 5 decide, DECISIONS 20), neither does verification_scope_label.",
  check({ record }) {
    const output = recordGateOutput(record);
    const gate = asObject(record.claim_gate_output);
    const allowed = output?.allowedLevel;
    if (!output || !gate || allowed === undefined) return [];
    const because = downgradesSentence(output);
    if (levelRank(allowed) === undefined) {
      return [
        {
          rule: ID,
          severity: 'warning',
          message: `claim_gate_output.allowed_protocol_level "${allowed}" is not a protocol level (none, V0 … V8), so the record's claim cannot be compared with it`,
          hint: 'Copy allowed_protocol_level exactly as the Claim Gate wrote it (e.g. "V3"), or run the gate again (builder: claim-gate --input evidence.json).',
          pointer: '/claim_gate_output/allowed_protocol_level',
        },
      ];
    }
    // The comparison is the gate's own (claimExceedsGate's two halves), once for the level and once for the label, so
    // that each finding points at the field to change.
    const out: Finding[] = [];
    const level = asString(record.verification_level);
    for (const reason of levelExceedsGate({ verification_level: level }, gate)) {
      out.push(
        violation(
          ID,
          '/verification_level',
          `${reason} (claim_gate_output.allowed_protocol_level): its downgrades reduce the claim that may be made (spec 7).${because}`,
          `Lower verification_level to "${allowed}" or below, as the gate output says; or run the gate again on evidence that supports ${level} and put its output in claim_gate_output.`,
        ),
      );
    }
    const label = asString(record.verification_scope_label);
    for (const reason of scopeLabelExceedsGate({ verification_level: level, verification_scope_label: label }, gate)) {
      const fits = labelsUpTo(allowed);
      const gateLabel = output.allowedScopeLabel;
      out.push(
        violation(
          ID,
          '/verification_scope_label',
          `${reason} (claim_gate_output).${because}`,
          gateLabel !== undefined && scopeLabelWidth(gateLabel) !== undefined
            ? `Use "${gateLabel}" or a narrower label: the record may not claim more coverage than the gate found evidence for.`
            : fits.length > 0
              ? `Use a label that ${allowed} may carry: ${fits.join(', ')}.`
              : `The gate allows no verification scope at ${allowed}: remove the label, or run the gate on evidence that supports one.`,
        ),
      );
    }
    return out;
  },
};
