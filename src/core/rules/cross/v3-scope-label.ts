import { scopeLabelRule } from './scope-label.ts';

/** Spec 2.1 cross-field rule 5. */
export const v3ScopeLabel = scopeLabelRule('cross/v3-scope-label', 'V3', 5, [
  'single_hash_verification',
  'multi_hash_verification',
  'component_limited_verification',
  'partial_with_limitations',
  'V3-minimal',
  'V3-strong',
]);
