/**
 * Evaluates the rules document's conditions (its `condition_language`) over one evidence input. Hand-written:
 * the language is a dozen lines of semantics, and a general query library would make the published rules harder
 * to read than the conditions themselves. Conditions never throw on odd input: a missing or mistyped field simply
 * does not match.
 */
import type { ClaimGateRules, Condition, Matcher } from './rules-document.ts';
import { compareComponentLevels, componentOf } from './levels.ts';

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** The value at a dotted path ("a.b.c"), or undefined. */
export function valueAt(root: unknown, path: string): unknown {
  let here: unknown = root;
  for (const key of path.split('.')) {
    if (!isObject(here) || !Object.hasOwn(here, key)) return undefined;
    here = here[key];
  }
  return here;
}

const regexCache = new Map<string, RegExp>();
function regex(source: string): RegExp {
  let re = regexCache.get(source);
  if (!re) {
    re = new RegExp(source, 'u');
    regexCache.set(source, re);
  }
  return re;
}

function present(v: unknown): boolean {
  if (typeof v === 'string') return v.trim() !== '';
  if (Array.isArray(v)) return v.length > 0;
  if (isObject(v)) return Object.keys(v).length > 0;
  return false;
}

/** Whether `value` (a field of `item`) satisfies every operator of `m`. */
export function matches(value: unknown, m: Matcher, item?: unknown): boolean {
  if ('equals' in m && value !== m.equals) return false;
  if ('not_equals' in m && value === m.not_equals) return false;
  if (m.in !== undefined && !m.in.includes(value)) return false;
  if (m.present !== undefined && present(value) !== m.present) return false;
  if (m.pattern !== undefined && (typeof value !== 'string' || !regex(m.pattern).test(value))) return false;
  if (m.equals_field !== undefined && (value === undefined || value !== valueAt(item, m.equals_field))) return false;
  if (m.at_least !== undefined && (typeof value !== 'number' || !(value >= m.at_least))) return false;
  if (m.min_items !== undefined && (!Array.isArray(value) || value.length < m.min_items)) return false;
  return true;
}

/** The objects of one evidence list (non-objects in the list are ignored: the schema has reported them). */
export function evidenceList(input: Json, name: string): Json[] {
  const list = valueAt(input, `evidence.${name}`);
  return Array.isArray(list) ? list.filter(isObject) : [];
}

/** The items of evidence[list] that match every matcher of `where`. */
export function matchingItems(input: Json, list: string, where: Record<string, Matcher> | undefined): Json[] {
  const items = evidenceList(input, list);
  if (!where) return items;
  const fields = Object.entries(where);
  return items.filter((item) => fields.every(([path, m]) => matches(valueAt(item, path), m, item)));
}

/**
 * One evidence input under one rules document: answers conditions and component rungs, memoising rungs (a rung
 * may name another; a cycle in the document counts as not reached rather than looping).
 */
export class EvidenceView {
  readonly input: Json;
  readonly rules: ClaimGateRules;
  private readonly rungs = new Map<string, boolean>();
  private readonly components = new Map<string, string>();

  constructor(input: Json, rules: ClaimGateRules) {
    this.input = input;
    this.rules = rules;
  }

  holds(c: Condition): boolean {
    if ('list' in c) {
      const items = matchingItems(this.input, c.list, c.where);
      const need = c.at_least ?? 1;
      if (c.distinct === undefined) return items.length >= need;
      const values = new Set(items.map((i) => valueAt(i, c.distinct!)).filter((v) => v !== undefined).map((v) => JSON.stringify(v)));
      return values.size >= need;
    }
    if ('field' in c) {
      const { field, ...m } = c;
      return matches(valueAt(this.input, field), m, this.input);
    }
    if ('all_of' in c) return c.all_of.every((x) => this.holds(x));
    if ('any_of' in c) return c.any_of.some((x) => this.holds(x));
    if ('rung' in c) return this.rungReached(c.rung);
    if ('component_at_least' in c) {
      return Object.entries(c.component_at_least).every(([component, level]) => (compareComponentLevels(this.componentLevel(component), level, this.rules) ?? -1) >= 0);
    }
    return false; // an unknown condition never holds: the document cannot grant by a typo
  }

  /** Whether the evidence reaches a component rung (the floor always is). */
  rungReached(level: string): boolean {
    const known = this.rungs.get(level);
    if (known !== undefined) return known;
    const component = componentOf(level, this.rules);
    if (component === undefined) return false;
    const ladder = this.rules.component_ladders[component]!;
    if (ladder.order[0] === level) return true;
    const rung = ladder.rungs[level];
    if (!rung) return false;
    this.rungs.set(level, false); // cycle guard
    const reached = this.holds(rung.when);
    this.rungs.set(level, reached);
    return reached;
  }

  /** The highest rung of a component the evidence reaches. */
  componentLevel(component: string): string | undefined {
    const known = this.components.get(component);
    if (known !== undefined) return known;
    const ladder = this.rules.component_ladders[component];
    if (!ladder) return undefined;
    let best = ladder.order[0]!;
    for (const level of ladder.order) if (this.rungReached(level)) best = level;
    this.components.set(component, best);
    return best;
  }
}
