import { scopeLabelRule } from './scope-label.ts';

/** Spec 2.1 cross-field rule 4, with DECISIONS 20 (V2-minimal and V2-strong name their level). */
export const v2ScopeLabel = scopeLabelRule('cross/v2-scope-label', 4);
