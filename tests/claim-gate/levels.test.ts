import { describe, expect, it } from 'vitest';
import {
  compareComponentLevels,
  compareLevels,
  componentOf,
  isHistoricalOnly,
  levelRank,
  newWorkCeiling,
  protocolLevels,
  protocolScopeLabels,
  scopeLabelWidth,
} from '../../src/core/claim-gate/levels.ts';
import { PUBLISHED_CLAIM_GATE_RULES } from '../../src/core/claim-gate/rules-document.ts';

describe('protocol levels', () => {
  it('are ordered V0 < … < V4 < V4+ < V5 < … < V8, with none below V0', () => {
    expect(protocolLevels()).toEqual(['V0', 'V1', 'V2', 'V3', 'V4', 'V4+', 'V5', 'V6', 'V7', 'V8']);
    expect(levelRank('none')).toBe(-1);
    expect(compareLevels('V4+', 'V4')).toBeGreaterThan(0);
    expect(compareLevels('V4+', 'V5')).toBeLessThan(0);
    expect(compareLevels('V3', 'V3')).toBe(0);
    expect(compareLevels('V9', 'V3')).toBeUndefined();
    expect(levelRank(3)).toBeUndefined();
  });

  it('V4+, V6, V7, V8 are historical-only; new work is capped at V5 skipping them', () => {
    expect(['V4+', 'V6', 'V7', 'V8'].every((l) => isHistoricalOnly(l))).toBe(true);
    expect(isHistoricalOnly('V5')).toBe(false);
    expect(newWorkCeiling('V4+')).toBe('V4');
    expect(newWorkCeiling('V8')).toBe('V5');
    expect(newWorkCeiling('V3')).toBe('V3');
  });

  it('read from the rules document: a changed document changes the answer', () => {
    const rules = structuredClone(PUBLISHED_CLAIM_GATE_RULES);
    rules.protocol_levels.historical_only_for_new_work = ['V6', 'V7', 'V8'];
    expect(isHistoricalOnly('V4+', rules)).toBe(false);
    expect(newWorkCeiling('V4+', rules)).toBe('V4+');
  });
});

describe('scope labels', () => {
  it('V2 and V3 have a minimal and a strong label, minimal narrower', () => {
    expect(protocolScopeLabels('V2')).toEqual(['V2-minimal', 'V2-strong']);
    expect(protocolScopeLabels('V5')).toEqual([]);
    expect(scopeLabelWidth('V3-minimal')).toBeLessThan(scopeLabelWidth('V3-strong')!);
    expect(scopeLabelWidth('V2-strong')).toBeGreaterThan(scopeLabelWidth('V2-minimal')!);
    expect(scopeLabelWidth('single_hash_verification')).toBe(scopeLabelWidth('V3-minimal'));
    expect(scopeLabelWidth('full_public_digital_verification')).toBeGreaterThan(scopeLabelWidth('V3-strong')!);
    expect(scopeLabelWidth('legacy_unlabeled')).toBeUndefined();
  });
});

describe('component ladders', () => {
  it('order each ladder and refuse to compare across ladders', () => {
    expect(componentOf('B3')).toBe('bitcoin_originals');
    expect(compareComponentLevels('C3R', 'C3')).toBeGreaterThan(0);
    expect(compareComponentLevels('C3R', 'C5')).toBeLessThan(0);
    expect(compareComponentLevels('D4', 'D2')).toBeGreaterThan(0);
    expect(compareComponentLevels('B2', 'D5')).toBeUndefined();
    expect(compareComponentLevels('D3', 'D2')).toBeUndefined();
  });
});
