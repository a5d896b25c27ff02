/**
 * The Claim Gate finding of a record page: the gate's verdict, the allowed level and every required downgrade with
 * its reason, next to the submitter's claim. Worded as the gate's finding on the evidence the submitter supplied,
 * never as the archive vouching for the record, and saying where the finding comes from (the archive's own
 * re-evaluation, or the record's claim_gate_output as the submitter wrote it): src/core/record/gate-view.ts.
 */
import type { ClaimGateStatus } from '../../../core/claim-gate/output.ts';
import type { RecordGateDowngrade, RecordGateOutput } from '../../../core/record/gate-output.ts';
import type { RecordGateView, SubmitterClaim } from '../../../core/record/gate-view.ts';
import { text as esc } from '../escape.ts';
import { section, type Page } from './page.ts';

/** Words for a reader, keyed by the gate output schema's status enum (the machine value stays the enum's). */
const VERDICT_WORDS: Record<ClaimGateStatus, string> = {
  PASS: 'Pass: the claim requested may be made as it stands',
  PASS_WITH_DOWNGRADE: 'Pass with downgrades: a smaller claim may be made',
  FAIL: 'Fail: no strict evidence claim may be made',
  FAIL_WITH_REASONS: 'Fail with reasons: the evidence supports no strict evidence claim',
};

const code = (value: string) => `<code dir="auto">${esc(value)}</code>`;

function claimText(c: SubmitterClaim): string {
  const parts: string[] = [];
  if (c.level !== undefined) parts.push(`verification level ${code(c.level)}`);
  if (c.scopeLabel !== undefined) parts.push(`scope ${code(c.scopeLabel)}`);
  if (c.legacyVLevel !== undefined) parts.push(`signed claim: legacy V level ${code(c.legacyVLevel)}`);
  if (c.digitalProfile !== undefined) parts.push(`digital profile ${code(c.digitalProfile)}`);
  if (c.coverageScope !== undefined) parts.push(`coverage ${code(c.coverageScope)}`);
  return parts.length > 0 ? parts.join(' · ') : '<span class="muted">no level stated</span>';
}

function provenance(view: RecordGateView): string {
  if (view.source === 'submitted') {
    return (
      '<p class="section-note">As the record states it. The submitter supplied this claim gate output, and the record does ' +
      "not carry the evidence input it was computed from, so the archive has not run the gate again: this is the submitter's " +
      "account of a gate's finding, not the archive's.</p>"
    );
  }
  const recorded =
    view.recordedOutputMatches === undefined
      ? ''
      : view.recordedOutputMatches
        ? ' The claim gate output the submitter sent is identical to this re-evaluation.'
        : view.recordedUnderOtherRules
          ? ' The claim gate output in the record was made under other rules (the published rules have changed since); shown here is the re-evaluation under the current rules.'
          : ' The claim gate output in the record <em>differs</em> from this re-evaluation; shown here is the re-evaluation.';
  return (
    "<p class=\"section-note\">The archive's Claim Gate ran the published rules (<code>/api/claim-gate-rules.json</code>) on " +
    'the evidence input the record carries when this page was built. It is the gate\'s reading of the evidence ' +
    'the submitter supplied: the archive did not repeat the checks (it cannot re-hash the submitter\'s files), and it does ' +
    `not vouch for the record.${recorded}</p>`
  );
}

function downgrade(d: RecordGateDowngrade): string {
  const step = d.from !== undefined || d.to !== undefined ? `${code(d.from ?? '?')} → ${code(d.to ?? '?')}: ` : '';
  return `<li>${step}<span dir="auto">${esc(d.reason ?? 'no reason given')}</span>${d.rule ? ` <span class="muted small">(${esc(d.rule)})</span>` : ''}</li>`;
}

/**
 * The verdict: in words, and as its one machine value, the gate output schema's status enum (in the code element and
 * in data-claim-gate-status), whatever spelling the output uses; the record's own spelling, when it differs, is quoted
 * as the submitter's. A status that is none of the gate's is quoted, without a machine value.
 */
function verdictCell(output: RecordGateOutput): string {
  if (output.status === undefined) return '<dd><span class="muted">not stated</span></dd>';
  const status = output.gateStatus;
  if (status === undefined) return `<dd>A status the archive does not recognise: the record writes ${code(output.status)}</dd>`;
  const spelled = output.status === status ? '' : ` <span class="muted small">(the record writes ${code(output.status)})</span>`;
  return `<dd data-claim-gate-status="${status}">${esc(VERDICT_WORDS[status])} ${code(status)}${spelled}</dd>`;
}

export function claimGateSection({ gate }: Page): string {
  if (!gate) return '';
  const { output, claimFit } = gate;
  const fit =
    claimFit === 'within'
      ? "The submitter's claim is within what the gate allows."
      : claimFit === 'above'
        ? "<em>The submitter's claim is higher than the gate allows.</em>"
        : 'The claim and the allowed level cannot be compared (a level is missing or not on the protocol scale).';
  const downgradesLabel = gate.source === 'submitted' ? 'Required downgrades, as the record states them' : 'Required downgrades';
  return section(
    'claim-gate',
    'Claim Gate finding',
    provenance(gate) +
      '<dl class="fields">' +
      `<dt>The submitter's claim</dt><dd>${claimText(gate.claim)}</dd>` +
      `<dt>Gate verdict</dt>${verdictCell(output)}` +
      `<dt>Allowed level</dt><dd>${output.allowedLevel !== undefined ? code(output.allowedLevel) : '<span class="muted">not stated</span>'}` +
      `${output.allowedScopeLabel !== undefined ? ` · scope ${code(output.allowedScopeLabel)}` : ''}</dd>` +
      `<dt>Claim against the gate</dt><dd>${fit}</dd>` +
      `<dt>${downgradesLabel}</dt><dd>${output.downgrades.length > 0 ? `<ul>${output.downgrades.map(downgrade).join('')}</ul>` : 'None'}</dd>` +
      '</dl>',
  );
}
