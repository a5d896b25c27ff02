import type { GateRule } from '../state.ts';

/** With a blocking failure, no verification claim may be made: the level falls to V0 and no component is allowed. */
export const blocking: GateRule = {
  id: 'gate/blocking',
  summary: 'when any blocking failure was found, the allowed level is V0 (read only) and no component level is allowed',
  apply(state) {
    if (state.blocking.length === 0) return;
    if (state.allowed !== 'V0' && state.allowed !== 'none') {
      state.downgrades.push({
        from: state.allowed,
        to: 'V0',
        reason: `${state.blocking.length === 1 ? 'a blocking failure' : `${state.blocking.length} blocking failures`} (listed in blocking_failures): no verification claim may be made until fixed`,
        rule: this.id,
      });
      state.allowed = 'V0';
    }
    state.components = {};
  },
};
