import { scopeLabelRule } from './scope-label.ts';

/** Spec 2.1 cross-field rule 5. */
export const v3ScopeLabel = scopeLabelRule('cross/v3-scope-label', 5);
