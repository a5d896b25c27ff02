/**
 * The record's boundary statements in one compact block: the top-level constant flags (not authority, not
 * amendment, …), the boundary_acknowledgement object and the two policy flag objects. Each statement is a check mark
 * (true) or a cross (false; a valid record has only true ones), labelled in words.
 */
import { fieldLabel } from '../../model/labels.ts';
import { text as esc } from '../escape.ts';
import { object, text, type Json } from './page.ts';

const TOP_FLAGS = ['not_authority', 'not_amendment', 'not_endorsement', 'not_verification_unless_claimed', 'bitcoin_originals_prevail'];

interface Group {
  title: string;
  items: [key: string, on: boolean][];
  /** The policy document the flags refer to (record text). */
  policy: string | undefined;
}

/** The boolean members of an object (of anything else: none). */
function booleans(value: unknown): [string, boolean][] {
  return Object.entries(object(value) ?? {}).filter((e): e is [string, boolean] => typeof e[1] === 'boolean');
}

function groupsOf(r: Json): Group[] {
  const policyOf = (value: unknown) => text(object(value)?.policy);
  const groups: Group[] = [
    { title: 'The record states', items: TOP_FLAGS.filter((k) => typeof r[k] === 'boolean').map((k) => [k, r[k] as boolean]), policy: undefined },
    { title: 'Boundary acknowledgements', items: booleans(r.boundary_acknowledgement), policy: undefined },
    { title: 'Reception policy', items: booleans(r.x_reception_policy), policy: policyOf(r.x_reception_policy) },
    { title: 'Origin classification policy', items: booleans(r.x_origin_classification_policy), policy: policyOf(r.x_origin_classification_policy) },
  ];
  return groups.filter((g) => g.items.length > 0 || g.policy);
}

function check([key, on]: [string, boolean]): string {
  return (
    `<li class="${on ? 'check-yes' : 'check-no'}"><span class="check-mark" aria-hidden="true">${on ? '✓' : '✗'}</span>` +
    `<span class="visually-hidden">${on ? 'Yes: ' : 'No: '}</span>${esc(fieldLabel(key))}</li>`
  );
}

export function boundaryBlock(r: Json): string {
  const groups = groupsOf(r);
  if (groups.length === 0) {
    return (
      '<p class="muted">This record carries no boundary statements of its own (its kind does not require them). The ' +
      "archive's boundary applies to it as to every record: it is not authority, and the original inscribed records prevail.</p>"
    );
  }
  const group = (g: Group) =>
    `<div class="boundary-group"><h3>${g.title}</h3>` +
    (g.policy ? `<p class="muted small">Policy document: <code>${esc(g.policy)}</code></p>` : '') +
    `<ul class="checks">${g.items.map(check).join('')}</ul></div>`;
  return `<div class="boundary">${groups.map(group).join('')}</div>`;
}
