import type { GateRule } from '../state.ts';
import { addOnce } from '../state.ts';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | undefined => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);

/**
 * A report needs the agent's integrity declaration and its verification session; a false declaration flag or
 * copied values stop any claim, whatever kind was requested.
 */
export const integrityDeclaration: GateRule = {
  id: 'gate/integrity-declaration',
  summary: 'a report kind needs agent_integrity_declaration and verification_session; a false declaration flag or values copied from examples or prior reports is a blocking failure',
  apply(state) {
    const kinds = state.rules.record_kinds;
    const wantsReport = kinds.report_kinds.includes(state.input.requested_record_kind as string);
    for (const field of kinds.report_requires) {
      if (state.input[field] !== undefined || !wantsReport) continue;
      state.blocking.push(`${field} is missing: record kind ${String(state.input.requested_record_kind)} needs it; add it, or request record kind echo_v3`);
      addOnce(state.missing, field);
    }
    const declaration = obj(state.input.agent_integrity_declaration);
    if (declaration) {
      for (const key of state.rules.record_kinds.declaration_flags) {
        if (declaration[key] === false) state.blocking.push(`agent_integrity_declaration.${key} is false: no verification claim can rest on this input`);
      }
    }
    const session = obj(state.input.verification_session);
    if (session) {
      if (session.copied_values_from_examples === true) state.blocking.push('verification_session.copied_values_from_examples is true: example values are not evidence; redo the checks and record your own outputs');
      if (session.copied_values_from_prior_reports === true) state.blocking.push('verification_session.copied_values_from_prior_reports is true: a prior report is context, not your evidence; redo the checks');
      if (session.fresh_outputs_attached === false) addOnce(state.limitations, 'verification_session.fresh_outputs_attached is false: the outputs of the checks are not attached');
    }
  },
};
