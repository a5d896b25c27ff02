import type { GateRule } from '../state.ts';

/** Which record the input may become, and whether a report or the historical echo wrapper may be built. */
export const recordKind: GateRule = {
  id: 'gate/record-kind',
  summary: 'with blocking failures only an ordinary echo (echo_v3) is recommended and no report may be built; a test fixture is a test_record; otherwise the requested kind',
  apply(state) {
    const kinds = state.rules.record_kinds;
    const requested = typeof state.input.requested_record_kind === 'string' ? state.input.requested_record_kind : kinds.when_blocked;
    const blocked = state.blocking.length > 0;
    state.recordKind = state.input.test_fixture === true ? kinds.test_fixture_kind : blocked ? kinds.when_blocked : requested;
    state.canBuildReport = !blocked && kinds.report_requires.every((f) => state.input[f] !== undefined);
    state.canBuildWrapper = state.canBuildReport && requested === kinds.wrapper_kind;
  },
};
