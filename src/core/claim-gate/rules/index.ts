/**
 * The gate's rules in the order they run (gate/input-schema runs before them, in ../input.ts). Each is a small
 * module with a stable id; what they decide comes from the rules document, not from the modules.
 */
import type { GateRule } from '../state.ts';
import { limitationsKept } from './limitations-kept.ts';
import { placeholders } from './placeholders.ts';
import { hashMatch } from './hash-match.ts';
import { selfReportedHash } from './self-reported-hash.ts';
import { integrityDeclaration } from './integrity-declaration.ts';
import { forbiddenClaims } from './forbidden-claims.ts';
import { componentLevels } from './component-levels.ts';
import { requestedLevel } from './requested-level.ts';
import { historicalOnly } from './historical-only.ts';
import { protocolLevel } from './protocol-level.ts';
import { levelForbiddenClaims } from './level-forbidden-claims.ts';
import { blocking } from './blocking.ts';
import { scopeLabel } from './scope-label.ts';
import { recordKind } from './record-kind.ts';

export const gateRules: readonly GateRule[] = [
  limitationsKept,
  placeholders,
  hashMatch,
  selfReportedHash,
  integrityDeclaration,
  forbiddenClaims,
  componentLevels,
  requestedLevel,
  historicalOnly,
  protocolLevel,
  levelForbiddenClaims,
  blocking,
  scopeLabel,
  recordKind,
];
