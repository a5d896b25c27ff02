import { scopeLabelRule } from './scope-label.ts';

/** Spec 2.1 cross-field rule 4. */
export const v2ScopeLabel = scopeLabelRule('cross/v2-scope-label', 'V2', 4, [
  'single_reference_check',
  'single_hash_verification',
  'multi_hash_verification',
  'component_limited_verification',
  'partial_with_limitations',
]);
