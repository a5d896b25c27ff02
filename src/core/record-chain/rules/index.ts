/** Every record-chain rule, in the order their findings are reported (positions sort them in the end). */
import { claimGate } from './claim-gate.ts';
import { contentHash } from './content-hash.ts';
import { guardianId } from './guardian-id.ts';
import { guardianRetirementKey } from './guardian-retirement-key.ts';
import { historicalLevel } from './historical-level.ts';
import { propagationForbidden } from './propagation-forbidden.ts';
import type { ChainRule } from './rule.ts';
import { secrets } from './secrets.ts';
import { signature } from './signature.ts';

export const chainRules: readonly ChainRule[] = [historicalLevel, propagationForbidden, secrets, claimGate, guardianId, guardianRetirementKey, contentHash, signature];

export type { ChainContext, ChainRule } from './rule.ts';
