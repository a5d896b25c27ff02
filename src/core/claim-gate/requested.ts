/** Reads claims_requested_by_agent: protocol levels (V3, V2-minimal), component levels (B1, C3R) and claims in words. */
import type { ClaimGateRules } from './rules-document.ts';
import { compareLevels, componentOf, compareComponentLevels, isProtocolLevel, type ProtocolLevel, type RecordVerificationLevel } from './levels.ts';

export interface RequestedClaims {
  /** The highest protocol level requested, "none" when none was. */
  level: RecordVerificationLevel;
  /** The scope label the level was requested with (V2-minimal), when only labels of it were requested. */
  scopeLabel?: string;
  /** The highest level requested per component. */
  components: Map<string, string>;
  /** Everything else, in words, in input order (trimmed, duplicates kept once). */
  words: string[];
}

export function readRequested(value: unknown, rules: ClaimGateRules): RequestedClaims {
  const out: RequestedClaims = { level: 'none', components: new Map(), words: [] };
  if (!Array.isArray(value)) return out;
  for (const raw of value) {
    if (typeof raw !== 'string') continue;
    const token = raw.trim();
    if (token === '') continue;
    const labelled = Object.entries(rules.scope_labels.protocol_scope_labels).find(([, labels]) => labels.includes(token));
    const level: string | undefined = labelled ? labelled[0] : isProtocolLevel(token, rules) ? token : undefined;
    if (level !== undefined) {
      const cmp = compareLevels(level, out.level, rules)!;
      if (cmp > 0) {
        out.level = level as ProtocolLevel;
        out.scopeLabel = labelled ? token : undefined;
      } else if (cmp === 0) {
        // The widest request of one level is what was asked for: a bare level over any label, strong over minimal.
        if (!labelled) out.scopeLabel = undefined;
        else if (out.scopeLabel !== undefined && labelled[1].indexOf(token) > labelled[1].indexOf(out.scopeLabel)) out.scopeLabel = token;
      }
      continue;
    }
    const component = componentOf(token, rules);
    if (component !== undefined) {
      const had = out.components.get(component);
      if (had === undefined || (compareComponentLevels(token, had, rules) ?? 0) > 0) out.components.set(component, token);
      continue;
    }
    if (!out.words.includes(token)) out.words.push(token);
  }
  return out;
}
