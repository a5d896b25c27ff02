import type { GateRule } from '../state.ts';
import { addOnce } from '../state.ts';

/** The input's limitations are carried to the output first; no rule ever removes one. */
export const limitationsKept: GateRule = {
  id: 'gate/limitations-kept',
  summary: "the evidence input's limitations are carried into non_blocking_limitations; the gate never removes one",
  apply(state) {
    const list = state.input.limitations;
    if (!Array.isArray(list)) return;
    for (const item of list) if (typeof item === 'string' && item.trim() !== '') addOnce(state.limitations, item);
  },
};
