import { childPointer } from '../../json/pointer.ts';
import type { GateRule } from '../state.ts';

const SHOWN = 3;

/** Pointers of the strings (member names included) that contain one of the markers, case-insensitively. */
function placeholderPointers(value: unknown, markers: readonly string[], pointer = '', out: string[] = []): string[] {
  const hit = (s: string) => markers.some((m) => s.toLowerCase().includes(m));
  if (typeof value === 'string') {
    if (hit(value)) out.push(pointer);
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => placeholderPointers(v, markers, childPointer(pointer, i), out));
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (hit(k)) out.push(childPointer(pointer, k));
      placeholderPointers(v, markers, childPointer(pointer, k), out);
    }
  }
  return out;
}

/** A template submitted unchanged is not evidence: its placeholder values were never checked. */
export const placeholders: GateRule = {
  id: 'gate/placeholders',
  summary: 'an input that still holds template placeholder text (the markers of template_placeholder_markers) is a blocking failure',
  apply(state) {
    const markers = state.rules.template_placeholder_markers.map((m) => m.toLowerCase());
    const at = placeholderPointers(state.input, markers);
    if (at.length === 0) return;
    const shown = at.slice(0, SHOWN).join(', ') + (at.length > SHOWN ? ` and ${at.length - SHOWN} more` : '');
    state.blocking.push(`template placeholder text is still in the input (at ${shown}): replace every placeholder with what you actually checked, or leave the entry out`);
  },
};
