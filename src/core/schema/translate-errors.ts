/**
 * Turns Ajv's errors into findings a contributor can act on: one finding per problem (missing or extra fields
 * of one object are grouped), plain words instead of schema jargon, and a hint saying what to change.
 */
import type { ErrorObject } from 'ajv';
import type { Finding } from '../diagnostics/diagnostic.ts';
import { childPointer, describePointer } from '../json/pointer.ts';
import { describeJsonType } from '../json/strict-parse.ts';
import { shownValue } from '../diagnostics/shown-value.ts';
import { closest } from '../util/closest.ts';

const KIND_CONDITIONAL_HINT =
  'Every record_kind except legacy_record and verification_report_v2 carries the full Echo v3 field set.';

/** Wording that depends on which document was validated (the Echo v3 record by default). */
export interface TranslationWording {
  /** How hints name the schema, e.g. "Echo v3" → "… the Echo v3 schema". */
  schemaName: string;
  /** Hint for fields not allowed at the top level. */
  closedTopLevelHint: string;
  /** Added to a missing-fields hint when some are required by a kind-dependent condition. */
  conditionalHint: string;
}

const ECHO_V3_WORDING: TranslationWording = {
  schemaName: 'Echo v3',
  closedTopLevelHint:
    'The top level of an Echo v3 record is closed: remove these fields, or keep non-authoritative notes under "extensions" (keys there must not contain authority, canonical, amend, verification, attestation, investment, instruction or governance).',
  conditionalHint: KIND_CONDITIONAL_HINT,
};

export function translateSchemaErrors(errors: readonly ErrorObject[], wording: TranslationWording = ECHO_V3_WORDING): Finding[] {
  const out: Finding[] = [];
  // `conditional` names (from a kind-dependent "then") are listed after the always-required ones, as the spec does.
  const grouped = new Map<string, { finding: Finding; names: string[]; conditional: Set<string> }>();
  const group = (keyword: string, path: string, name: string, make: () => Finding, conditional = false): void => {
    const key = `${keyword}\u0000${path}`;
    let g = grouped.get(key);
    if (!g) {
      g = { finding: make(), names: [], conditional: new Set() };
      grouped.set(key, g);
      out.push(g.finding);
    }
    if (!g.names.includes(name)) g.names.push(name);
    if (conditional) g.conditional.add(name);
  };

  // Errors under a failed anyOf/oneOf/contains (one per branch or per item) would be noise: the umbrella says it once.
  const umbrellas = errors
    .filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf' || e.keyword === 'contains')
    .map((e) => e.schemaPath + '/');

  const reported = errors.filter(
    (e) =>
      e.keyword !== 'if' && // the failing "then" branch reports the real problem
      e.keyword !== 'propertyNames' && // so does the failing name's own error
      !umbrellas.some((u) => e.schemaPath.startsWith(u)),
  );
  // A value of the wrong type that must also be a constant or one of a list is one problem: the const or enum
  // finding names the value to write, so a type finding at the same place would only repeat it.
  const constrained = new Set(reported.filter((e) => e.keyword === 'const' || e.keyword === 'enum').map((e) => e.instancePath));

  for (const e of reported) {
    if (e.keyword === 'type' && constrained.has(e.instancePath)) continue;
    const where = describePointer(e.instancePath);
    switch (e.keyword) {
      case 'required': {
        const name = String(e.params.missingProperty);
        const conditional = e.schemaPath.includes('/then/');
        group(
          'required',
          e.instancePath,
          name,
          () => ({ rule: 'schema/required', severity: 'error', message: '', hint: '', pointer: e.instancePath }),
          conditional,
        );
        break;
      }
      case 'additionalProperties': {
        const name = String(e.params.additionalProperty);
        group('additionalProperties', e.instancePath, name, () => ({
          rule: 'schema/additional-properties',
          severity: 'error',
          message: '',
          hint: allowedFieldsHint(e, wording),
          pointer: childPointer(e.instancePath, name),
          at: 'key',
        }));
        break;
      }
      default:
        out.push(translateOne(e, where, wording.schemaName));
    }
  }

  for (const { finding, names: found, conditional } of grouped.values()) {
    const names = [...found.filter((n) => !conditional.has(n)), ...found.filter((n) => conditional.has(n))];
    const plural = names.length > 1;
    const where = describePointer(finding.rule === 'schema/required' ? finding.pointer : parentOf(finding.pointer));
    if (finding.rule === 'schema/required') {
      finding.message = `missing required field${plural ? 's' : ''} in ${where}: ${names.join(', ')}`;
      finding.hint = [`Add ${names.join(', ')}.`, conditional.size > 0 ? wording.conditionalHint : ''].filter(Boolean).join(' ');
    } else {
      finding.message = `field${plural ? 's' : ''} not allowed in ${where}: ${names.join(', ')}`;
    }
  }
  return out;
}

function parentOf(pointer: string): string {
  return pointer.slice(0, pointer.lastIndexOf('/'));
}

function allowedFieldsHint(e: ErrorObject, wording: TranslationWording): string {
  if (e.instancePath === '') return wording.closedTopLevelHint;
  const props = (e.parentSchema as { properties?: Record<string, unknown> } | undefined)?.properties;
  const allowed = props ? Object.keys(props) : [];
  return allowed.length > 0
    ? `Remove them or rename them to allowed fields of ${e.instancePath}: ${allowed.join(', ')}.`
    : `Remove them from ${e.instancePath}.`;
}

function typeWords(type: unknown): string {
  const words: Record<string, string> = {
    object: 'an object',
    array: 'an array',
    string: 'a string',
    number: 'a number',
    integer: 'an integer',
    boolean: 'true or false',
    null: 'null',
  };
  const types = Array.isArray(type) ? type : String(type).split(',');
  return types.map((t) => words[t] ?? t).join(' or ');
}

function translateOne(e: ErrorObject, where: string, schemaName: string): Finding {
  const base = { severity: 'error' as const, pointer: e.instancePath };
  const found = 'data' in e ? e.data : undefined;
  switch (e.keyword) {
    case 'type':
      return {
        ...base,
        rule: 'schema/type',
        message: `${where} must be ${typeWords(e.params.type)} (found ${describeJsonType(found)})`,
        hint: `Change the value to ${typeWords(e.params.type)}.`,
      };
    case 'enum': {
      const allowed = (e.params.allowedValues as unknown[]).map(String);
      const guess = typeof found === 'string' ? closest(found, allowed) : undefined;
      return {
        ...base,
        rule: 'schema/enum',
        message: `${where} must be one of: ${allowed.join(', ')} (found ${shownValue(found)})`,
        hint: guess ? `Did you mean "${guess}"?` : 'Use one of the listed values exactly as written.',
      };
    }
    case 'const':
      return {
        ...base,
        rule: 'schema/const',
        message: `${where} must be ${shownValue(e.params.allowedValue)} (found ${shownValue(found)})`,
        hint: `This value is fixed: write ${JSON.stringify(e.params.allowedValue)}.`,
      };
    case 'pattern':
      return {
        ...base,
        rule: 'schema/pattern',
        message: `${where} has the wrong form ${shownValue(found)}: it must match ${e.params.pattern}`,
        hint: patternHint(String(e.params.pattern)),
      };
    case 'format':
      return {
        ...base,
        rule: 'schema/format',
        message: `${where} must be a ${e.params.format} (found ${shownValue(found)})`,
        hint: e.params.format === 'date-time' ? 'Write an RFC 3339 timestamp, e.g. 2026-05-13T04:30:25Z.' : `Write a valid ${e.params.format}.`,
      };
    case 'minItems':
      return {
        ...base,
        rule: 'schema/min-items',
        message: `${where} needs at least ${e.params.limit} item${e.params.limit === 1 ? '' : 's'} (found ${Array.isArray(found) ? found.length : 0})`,
        hint: 'Add the missing items; for origin_limitations, state honestly what limits how this record came about.',
      };
    case 'maxItems':
      return { ...base, rule: 'schema/max-items', message: `${where} may have at most ${e.params.limit} items`, hint: 'Remove items.' };
    case 'uniqueItems':
      return {
        ...base,
        rule: 'schema/unique-items',
        message: `${where} lists the same item twice (items ${Math.min(e.params.i, e.params.j)} and ${Math.max(e.params.i, e.params.j)})`,
        hint: 'Remove the repeated item.',
      };
    case 'minLength':
      return {
        ...base,
        rule: 'schema/min-length',
        message: `${where} must have at least ${e.params.limit} character${e.params.limit === 1 ? '' : 's'}`,
        hint: 'Fill in the text.',
      };
    case 'maxLength':
      return { ...base, rule: 'schema/max-length', message: `${where} is longer than ${e.params.limit} characters`, hint: 'Shorten the text.' };
    case 'dependentRequired':
      // Ajv reports each missing companion once: one finding each, saying which field asks for it.
      return {
        ...base,
        rule: 'schema/dependent-required',
        message: `${where} has ${String(e.params.property)}, so it also needs ${String(e.params.missingProperty)}`,
        hint: `Add ${String(e.params.missingProperty)} (they go together), or remove ${String(e.params.property)}.`,
      };
    case 'contains':
      return {
        ...base,
        rule: 'schema/contains',
        message: `${where} lacks a required item${containsWhat(e)}`,
        hint: 'Add the item the rule names.',
      };
    case 'anyOf':
    case 'oneOf':
      return {
        ...base,
        rule: `schema/${e.keyword === 'anyOf' ? 'any-of' : 'one-of'}`,
        message: `${where} matches none of its allowed forms (found ${describeJsonType(found)})`,
        hint: `Compare the value with the field description in the ${schemaName} schema and correct its form.`,
      };
    default:
      return {
        ...base,
        rule: `schema/${e.keyword.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase())}`,
        message: `${where} ${e.message ?? 'is not valid'}`,
        hint: `Correct the value to fit the ${schemaName} schema.`,
      };
  }
}

function containsWhat(e: ErrorObject): string {
  const c = (e.schema as { const?: unknown } | undefined)?.const;
  return c === undefined ? '' : ` (${JSON.stringify(c)})`;
}

function patternHint(pattern: string): string {
  if (pattern === '^[BDTCNPE][0-9R+]+$') {
    return 'Write a depth code: one of the letters B D T C N P E followed by digits, R or +, e.g. "B1" or "T2+".';
  }
  if (pattern === '^[a-f0-9]{64}$') return 'Write 64 lowercase hexadecimal characters (a SHA-256 digest).';
  return `Write a value of the form ${pattern}.`;
}
