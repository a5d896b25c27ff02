/**
 * gate/input-schema: whether the input is an evidence input the gate can evaluate at all. Validated with Ajv
 * against the published /api/evidence-input-schema.v1.json (compiled once with the project's other schemas);
 * problems come back in the validator's plain words, one line each.
 */
import { schemaErrors } from '../schema/compile.ts';
import { translateSchemaErrors } from '../schema/translate-errors.ts';
import { unpairedSurrogateAt, unpairedSurrogateWords } from '../canonical/jcs.ts';

export const EVIDENCE_INPUT_SCHEMA_ID = '/api/evidence-input-schema.v1.json';
export const INPUT_SCHEMA_RULE = 'gate/input-schema';
export const INPUT_SCHEMA_SUMMARY = 'the input must be a JSON object with an RFC 8785 form that validates against /api/evidence-input-schema.v1.json; otherwise status FAIL, nothing allowed';

const WORDING = {
  schemaName: 'evidence input',
  closedTopLevelHint: 'The top level of an evidence input is closed: remove these fields (free notes belong in limitations).',
  conditionalHint: '',
};

/**
 * Lines saying why the input cannot be evaluated ([] when it can). `canonical` is the input's RFC 8785 form,
 * undefined when it has none: then the first string without one is named (searched only in that rare case).
 */
export function inputProblems(input: unknown, canonical: string | undefined): string[] {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    const what = input === null ? 'null' : Array.isArray(input) ? 'an array' : typeof input;
    return [`the input is ${what}, not an evidence input (a JSON object with schema "service.evidence-input.v1")`];
  }
  if (canonical === undefined) {
    const surrogate = unpairedSurrogateAt(input);
    return [surrogate ? unpairedSurrogateWords(surrogate.pointer || '/', surrogate.at).message : 'the input has no RFC 8785 canonical form'];
  }
  const errors = schemaErrors(input, EVIDENCE_INPUT_SCHEMA_ID);
  return translateSchemaErrors(errors, WORDING).map((f) => (f.hint ? `${f.message} — ${f.hint.charAt(0).toLowerCase()}${f.hint.slice(1)}` : f.message));
}
