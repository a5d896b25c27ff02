/**
 * The schema validators kept on disk as Ajv's standalone code, for processes that check one record and would
 * otherwise spend most of their time compiling (`npm run validate -- FILE` from an editor or a pre-commit hook):
 * compiling costs about 150 ms per validator, loading the generated code a few.
 *
 * The code lives in node_modules/.cache/echo-archive/ under names made from a hash of every schema document, the
 * Ajv version and compile.ts (where the options are), so the schemas stay the only source: a changed schema is a new name, compiled on its
 * first use. A missing, unreadable or unwritable cache only means compiling as before. Not for the bundled builder
 * (it has no node_modules); the validate CLI calls it, and the site build with its caches on, where an append judges
 * one file (src/site/build/2-read-archive.ts).
 */
import { createHash, type Hash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, unlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ValidateFunction } from 'ajv';
import { _ } from 'ajv/dist/compile/codegen/index.js';
import standaloneCodeImport from 'ajv/dist/standalone/index.js';
import { newAjv, provideFirstErrorValidator, useAllErrorsValidator, useFirstErrorValidator } from './compile.ts';
import { ECHO_RECORD_SCHEMA_ID, schemaDocuments } from './documents.ts';
import { replaceCacheFile } from '../util/replace-file.ts';

const require = createRequire(import.meta.url);
// CommonJS; its default export arrives wrapped under some loaders.
const standaloneCode = (standaloneCodeImport as unknown as { default?: typeof standaloneCodeImport }).default ?? standaloneCodeImport;
export const PRECOMPILED_DIR = join(dirname(fileURLToPath(import.meta.url)), '../../../node_modules/.cache/echo-archive');

export type ValidatorKind = 'first-error' | 'all-errors';

let compileSource: string | undefined;
let ajvVersion: string | undefined;
// The hash over every schema document, taken once per process and copied for each name (a one-file check asks for
// names several times; the documents are the same each time).
let schemasHash: Hash | undefined;

/** The file a validator of schema `id` is kept in: named by everything its code depends on. */
export function precompiledFile(id: string = ECHO_RECORD_SCHEMA_ID, kind: ValidatorKind = 'first-error'): string {
  ajvVersion ??= (require('ajv/package.json') as { version: string }).version;
  // compile.ts's own text stands for the Ajv options (a changed option is a changed file, so a new name).
  compileSource ??= readFileSync(new URL('./compile.ts', import.meta.url), 'utf8');
  schemasHash ??= createHash('sha256').update(JSON.stringify(schemaDocuments));
  const hash = schemasHash
    .copy()
    .update(`\0ajv ${ajvVersion}\0${kind}\0${id}\0`)
    .update(compileSource)
    .digest('hex')
    .slice(0, 32);
  return join(PRECOMPILED_DIR, `validate-${hash}.cjs`);
}

function load(file: string): ValidateFunction | undefined {
  try {
    const fn = require(file) as unknown;
    return typeof fn === 'function' ? (fn as ValidateFunction) : undefined;
  } catch {
    return undefined;
  }
}

function compileAndKeep(id: string, kind: ValidatorKind): ValidateFunction {
  const ajv = newAjv(kind === 'all-errors', { source: true, formats: _`require("ajv-formats/dist/formats").fullFormats` });
  const fn = ajv.getSchema(id);
  if (!fn) throw new Error(`schema ${id} is not in the schema folder`);
  const file = precompiledFile(id, kind);
  try {
    mkdirSync(dirname(file), { recursive: true });
  } catch {
    return fn; // no cache folder: compiled again next time
  }
  replaceCacheFile(file, standaloneCode(ajv, fn));
  return fn;
}

/**
 * Makes schemaErrors() use the kept code for schema `id`: loaded when it exists, else compiled now and kept for the
 * next process (both validators, so that a later check of an invalid record need not compile either). Returns
 * whether the kept first-error validator was loaded.
 */
export function usePrecompiledValidators(id: string = ECHO_RECORD_SCHEMA_ID): boolean {
  const { first, loaded } = keptValidators(id);
  useFirstErrorValidator(id, first);
  return loaded;
}

/**
 * usePrecompiledValidators, put off until a record is first checked against schema `id`: for a process that may
 * check none (a site build whose verdicts all come from its cache) and would otherwise load or compile for nothing.
 */
export function usePrecompiledValidatorsWhenNeeded(id: string = ECHO_RECORD_SCHEMA_ID): void {
  provideFirstErrorValidator(id, () => keptValidators(id).first);
}

/** The first-error validator from the kept code (or compiled now and kept), with the all-errors one provided beside it. */
function keptValidators(id: string): { first: (value: unknown) => boolean; loaded: boolean } {
  const first = load(precompiledFile(id, 'first-error'));
  if (first) {
    useAllErrorsValidator(id, () => load(precompiledFile(id, 'all-errors')));
    return { first, loaded: true };
  }
  const compiled = compileAndKeep(id, 'first-error');
  const all = compileAndKeep(id, 'all-errors');
  useAllErrorsValidator(id, () => all);
  pruneStale();
  return { first: compiled, loaded: false };
}

/** Removes code kept for schemas (or an Ajv, or options) that are no longer the current ones. */
function pruneStale(): void {
  const current = new Set(schemaDocuments.flatMap((d) => (['first-error', 'all-errors'] as const).map((k) => basename(precompiledFile(d.$id, k)))));
  try {
    for (const name of readdirSync(PRECOMPILED_DIR)) {
      if (/^validate-[0-9a-f]{32}\.cjs$/.test(name) && !current.has(name)) unlinkSync(join(PRECOMPILED_DIR, name));
    }
  } catch {
    // a read-only or vanished cache: nothing to prune
  }
}
