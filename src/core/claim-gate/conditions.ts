/**
 * Evaluates the rules document's conditions (its `condition_language`) over one evidence input. Hand-written:
 * the language is a dozen lines of semantics, and a general query library would make the published rules harder
 * to read than the conditions themselves. Each condition object of a rules document is compiled once into a
 * predicate (paths split, patterns built, operators picked), so an evaluation only runs closures. Conditions never
 * throw on odd input: a missing or mistyped field simply does not match.
 */
import type { ClaimGateRules, Condition, Matcher } from './rules-document.ts';
import { compareComponentLevels, componentOf } from './levels.ts';

type Json = Record<string, unknown>;
type Predicate = (view: EvidenceView) => boolean;
type ValueTest = (value: unknown, item: unknown) => boolean;

function isObject(v: unknown): v is Json {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function at(root: unknown, keys: readonly string[]): unknown {
  let here: unknown = root;
  for (const key of keys) {
    if (!isObject(here) || !Object.hasOwn(here, key)) return undefined;
    here = here[key];
  }
  return here;
}

function present(v: unknown): boolean {
  if (typeof v === 'string') return v.trim() !== '';
  if (Array.isArray(v)) return v.length > 0;
  if (isObject(v)) return Object.keys(v).length > 0;
  return false;
}

const OPERATORS = new Set(['equals', 'not_equals', 'in', 'present', 'pattern', 'equals_field', 'at_least', 'min_items']);

/** A matcher as one test: every operator it names must hold. An unknown operator is the document's error. */
function compileMatcher(m: Matcher): ValueTest {
  if (m === null || typeof m !== 'object') throw new TypeError(`a matcher must be an object, found ${JSON.stringify(m)}`);
  for (const op of Object.keys(m)) if (!OPERATORS.has(op)) throw new TypeError(`unknown matcher operator "${op}"`);
  const tests: ValueTest[] = [];
  if ('equals' in m) tests.push((v) => v === m.equals);
  if ('not_equals' in m) tests.push((v) => v !== m.not_equals);
  if (m.in !== undefined) {
    const allowed = m.in;
    tests.push((v) => allowed.includes(v));
  }
  if (m.present !== undefined) {
    const want = m.present;
    tests.push((v) => present(v) === want);
  }
  if (m.pattern !== undefined) {
    const re = new RegExp(m.pattern, 'u');
    tests.push((v) => typeof v === 'string' && re.test(v));
  }
  if (m.equals_field !== undefined) {
    const other = m.equals_field.split('.');
    tests.push((v, item) => v !== undefined && v === at(item, other));
  }
  if (m.at_least !== undefined) {
    const min = m.at_least;
    tests.push((v) => typeof v === 'number' && v >= min);
  }
  if (m.min_items !== undefined) {
    const min = m.min_items;
    tests.push((v) => Array.isArray(v) && v.length >= min);
  }
  return tests.length === 1 ? tests[0]! : (v, item) => tests.every((t) => t(v, item));
}

const compiled = new WeakMap<Condition, Predicate>();

function compile(c: Condition): Predicate {
  let p = compiled.get(c);
  if (!p) {
    p = build(c);
    compiled.set(c, p);
  }
  return p;
}

function build(c: Condition): Predicate {
  if (c === null || typeof c !== 'object') throw new TypeError(`a condition must be an object, found ${JSON.stringify(c)}`);
  if ('list' in c) {
    const name = c.list;
    const need = c.at_least ?? 1;
    const fields = Object.entries(c.where ?? {}).map(([path, m]) => ({ keys: path.split('.'), test: compileMatcher(m) }));
    const fits = (item: Json) => fields.every((f) => f.test(at(item, f.keys), item));
    if (c.distinct === undefined) {
      return (view) => {
        let n = 0;
        for (const item of view.list(name)) if (fits(item) && ++n >= need) return true;
        return false;
      };
    }
    const distinct = c.distinct.split('.');
    return (view) => {
      const seen = new Set<string>();
      for (const item of view.list(name)) {
        if (!fits(item)) continue;
        const v = at(item, distinct);
        if (v !== undefined) seen.add(JSON.stringify(v));
      }
      return seen.size >= need;
    };
  }
  if ('field' in c) {
    const { field, ...m } = c;
    const keys = field.split('.');
    const test = compileMatcher(m);
    return (view) => test(at(view.input, keys), view.input);
  }
  if ('all_of' in c) {
    const parts = c.all_of.map(compile);
    return (view) => parts.every((p) => p(view));
  }
  if ('any_of' in c) {
    const parts = c.any_of.map(compile);
    return (view) => parts.some((p) => p(view));
  }
  if ('rung' in c) {
    const rung = c.rung;
    return (view) => view.rungReached(rung);
  }
  if ('component_at_least' in c) {
    const pairs = Object.entries(c.component_at_least);
    return (view) => pairs.every(([component, level]) => (compareComponentLevels(view.componentLevel(component), level, view.rules) ?? -1) >= 0);
  }
  // A typo must not pass silently (nor grant anything): the document is refused as a whole.
  throw new TypeError(`unknown condition ${JSON.stringify(c)}`);
}

/** The component levels a condition names (rung, component_at_least), at any depth. */
function levelsNamed(c: Condition): string[] {
  if ('rung' in c) return [c.rung];
  if ('component_at_least' in c) return Object.values(c.component_at_least);
  if ('all_of' in c) return c.all_of.flatMap(levelsNamed);
  if ('any_of' in c) return c.any_of.flatMap(levelsNamed);
  return [];
}

const checked = new WeakSet<ClaimGateRules>();

/**
 * Compiles every condition of a rules document once, so a malformed one fails every evaluation the same way
 * (status FAIL, "the rules document could not be run") instead of only the inputs that reach it.
 */
export function compileRulesDocument(rules: ClaimGateRules): void {
  if (checked.has(rules)) return;
  const all: Condition[] = [
    ...rules.protocol_level_rules.flatMap((l) => l.requires.map((q) => q.when)),
    ...Object.values(rules.component_ladders).flatMap((ladder) => Object.values(ladder.rungs).map((r) => r.when)),
    ...rules.forbidden_claim_rules.flatMap((f) => (f.when ? [f.when] : [])),
    ...rules.downgrade_rules.flatMap((d) => [d.when, d.unless].filter((c): c is Condition => c !== undefined)),
    ...Object.values(rules.scope_labels.strong_when),
  ];
  for (const c of all) {
    compile(c);
    for (const level of levelsNamed(c)) if (componentOf(level, rules) === undefined) throw new TypeError(`unknown component level "${level}" in ${JSON.stringify(c)}`);
  }
  for (const [component, ladder] of Object.entries(rules.component_ladders)) {
    for (const rung of Object.keys(ladder.rungs)) if (!ladder.order.includes(rung)) throw new TypeError(`${component}: rung ${rung} is not on its ladder`);
  }
  checked.add(rules);
}

/** The objects of one evidence list (non-objects in the list are ignored: the schema has reported them). */
export function evidenceList(input: Json, name: string): Json[] {
  const evidence = input.evidence;
  const list = isObject(evidence) && Object.hasOwn(evidence, name) ? evidence[name] : undefined;
  return Array.isArray(list) ? list.filter(isObject) : [];
}

/**
 * One evidence input under one rules document: answers conditions and component rungs, memoising both (a rung
 * may name another; a cycle in the document counts as not reached rather than looping).
 */
export class EvidenceView {
  readonly input: Json;
  readonly rules: ClaimGateRules;
  private readonly lists = new Map<string, Json[]>();
  private readonly rungs = new Map<string, boolean>();
  private readonly components = new Map<string, string>();
  // Rules share condition objects across levels and rungs: each is answered once per input.
  private readonly answers = new Map<Condition, boolean>();

  constructor(input: Json, rules: ClaimGateRules) {
    this.input = input;
    this.rules = rules;
  }

  list(name: string): Json[] {
    let items = this.lists.get(name);
    if (!items) {
      items = evidenceList(this.input, name);
      this.lists.set(name, items);
    }
    return items;
  }

  holds(c: Condition): boolean {
    let answer = this.answers.get(c);
    if (answer === undefined) {
      answer = compile(c)(this);
      this.answers.set(c, answer);
    }
    return answer;
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
    for (let i = ladder.order.length - 1; i > 0; i--) {
      if (this.rungReached(ladder.order[i]!)) {
        best = ladder.order[i]!;
        break;
      }
    }
    this.components.set(component, best);
    return best;
  }
}
