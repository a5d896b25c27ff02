/**
 * Compiles the schema folder with Ajv (JSON Schema 2020-12, strict mode), once per process.
 *
 * Two validators from the same documents: a first-error one for the common case (a valid record costs one
 * fast pass) and an all-errors one, run only on records that fail, so a contributor sees every problem at once.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsImport from 'ajv-formats';
import { ECHO_RECORD_SCHEMA_ID, schemaDocuments } from './documents.ts';

// ajv-formats is CommonJS; its default export arrives wrapped under some loaders.
const addFormats = ((addFormatsImport as unknown as { default?: typeof addFormatsImport }).default ?? addFormatsImport);

/** An Ajv with every schema document; `code` is for Ajv's standalone code generation (precompiled.ts). */
export function newAjv(allErrors: boolean, code?: { source: true; formats: unknown }): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors, verbose: allErrors, ...(code ? { code: code as never } : {}) });
  addFormats(ajv);
  for (const doc of schemaDocuments) ajv.addSchema(doc);
  return ajv;
}

const cache = new Map<string, ValidateFunction | ((value: unknown) => boolean)>();

/**
 * Uses `fn` as the first-error validator of schema `id` (code Ajv generated from the same documents, loaded by
 * precompiled.ts), so that a process checking one record need not compile the schemas.
 */
export function useFirstErrorValidator(id: string, fn: (value: unknown) => boolean): void {
  cache.set(`false:${id}`, fn);
}

const firstErrorProviders = new Map<string, () => ((value: unknown) => boolean) | undefined>();

/**
 * The same, put off until a record is first checked against schema `id`: `provide` is called then (so a process that
 * checks no record loads nothing); when it gives nothing, the validator is compiled as usual.
 */
export function provideFirstErrorValidator(id: string, provide: () => ((value: unknown) => boolean) | undefined): void {
  cache.delete(`false:${id}`);
  firstErrorProviders.set(id, provide);
}

const allErrorsProviders = new Map<string, () => ValidateFunction | undefined>();

/**
 * The same for the all-errors validator, which runs only on records that fail: `provide` is called when one does
 * (so a valid record never loads it); when it gives nothing, the validator is compiled as usual.
 */
export function useAllErrorsValidator(id: string, provide: () => ValidateFunction | undefined): void {
  cache.delete(`true:${id}`);
  allErrorsProviders.set(id, provide);
}

function validator(id: string, allErrors: true): ValidateFunction;
function validator(id: string, allErrors: false): (value: unknown) => boolean;
function validator(id: string, allErrors: boolean): ValidateFunction | ((value: unknown) => boolean) {
  const key = `${allErrors}:${id}`;
  let fn = cache.get(key);
  if (!fn) {
    fn = (allErrors ? allErrorsProviders.get(id)?.() : firstErrorProviders.get(id)?.()) ?? newAjv(allErrors).getSchema(id);
    if (!fn) throw new Error(`schema ${id} is not in the schema folder`);
    cache.set(key, fn);
  }
  return fn;
}

/** All schema errors of `value` against the schema `id` ([] when valid). */
export function schemaErrors(value: unknown, id: string = ECHO_RECORD_SCHEMA_ID): ErrorObject[] {
  if (validator(id, false)(value)) return [];
  const full = validator(id, true);
  full(value);
  return full.errors ?? [];
}

/** Compiles every validator now (start-up cost paid once, e.g. before timing or serving). */
export function warmSchemas(id: string = ECHO_RECORD_SCHEMA_ID): void {
  validator(id, false);
  validator(id, true);
}
