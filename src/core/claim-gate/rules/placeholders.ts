import { pointerOf } from '../../json/pointer.ts';
import type { GateRule } from '../state.ts';

const SHOWN = 3;

const markerPatterns = new WeakMap<readonly string[], RegExp>();
/** One case-insensitive pattern for all markers (built once per rules document). */
function markerPattern(markers: readonly string[]): RegExp {
  let re = markerPatterns.get(markers);
  if (!re) {
    re = new RegExp(markers.map((m) => m.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'i');
    markerPatterns.set(markers, re);
  }
  return re;
}

const byName = ([a]: [string, unknown], [b]: [string, unknown]) => (a < b ? -1 : a > b ? 1 : 0);

/** Pointers of the strings (member names included) that match; a pointer is built only on a hit. */
function placeholderPointers(value: unknown, re: RegExp, path: Array<string | number>, out: string[]): void {
  if (typeof value === 'string') {
    if (re.test(value)) out.push(pointerOf(path));
  } else if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      path.push(i);
      placeholderPointers(value[i], re, path, out);
      path.pop();
    }
  } else if (value !== null && typeof value === 'object') {
    // Member names in sorted order, so inputs equal under RFC 8785 give the same finding.
    for (const [k, v] of Object.entries(value).sort(byName)) {
      path.push(k);
      if (re.test(k)) out.push(pointerOf(path));
      placeholderPointers(v, re, path, out);
      path.pop();
    }
  }
}

/** A template submitted unchanged is not evidence: its placeholder values were never checked. */
export const placeholders: GateRule = {
  id: 'gate/placeholders',
  summary: 'an input that still holds template placeholder text (the markers of template_placeholder_markers) is a blocking failure',
  apply(state) {
    const at: string[] = [];
    placeholderPointers(state.input, markerPattern(state.rules.template_placeholder_markers), [], at);
    if (at.length === 0) return;
    const shown = at.slice(0, SHOWN).join(', ') + (at.length > SHOWN ? ` and ${at.length - SHOWN} more` : '');
    state.blocking.push(`template placeholder text is still in the input (at ${shown}): replace every placeholder with what you actually checked, or leave the entry out`);
  },
};
