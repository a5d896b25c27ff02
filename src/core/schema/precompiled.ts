/**
 * The first-error validators kept on disk as Ajv's standalone code, for processes that check one record and would
 * otherwise spend most of their time compiling (`npm run validate -- FILE` from an editor or a pre-commit hook):
 * compiling costs about 150 ms, loading the generated code a few.
 *
 * The code lives in node_modules/.cache/echo-archive/ under a name made from a hash of every schema document, the
 * Ajv version and the options, so the schemas stay the only source: a changed schema is a new name, compiled on its
 * first use. A missing, unreadable or unwritable cache only means compiling as before. Not for the bundled builder
 * (it has no node_modules); the validate CLI calls it.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { _ } from 'ajv/dist/compile/codegen/index.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { newAjv, useFirstErrorValidator } from './compile.ts';
import { ECHO_RECORD_SCHEMA_ID, schemaDocuments } from './documents.ts';

const require = createRequire(import.meta.url);
export const PRECOMPILED_DIR = join(dirname(fileURLToPath(import.meta.url)), '../../../node_modules/.cache/echo-archive');

type Validate = (value: unknown) => boolean;

/** The file the first-error validator of schema `id` is kept in: named by everything the code depends on. */
export function precompiledFile(id: string = ECHO_RECORD_SCHEMA_ID): string {
  const ajvVersion = (require('ajv/package.json') as { version: string }).version;
  const hash = createHash('sha256')
    .update(JSON.stringify(schemaDocuments))
    .update(`\0ajv ${ajvVersion}\0strict first-error formats:full\0${id}`)
    .digest('hex')
    .slice(0, 32);
  return join(PRECOMPILED_DIR, `validate-${hash}.cjs`);
}

function compileAndKeep(id: string, file: string): Validate | undefined {
  const ajv = newAjv(false, { source: true, formats: _`require("ajv-formats/dist/formats").fullFormats` });
  const fn = ajv.getSchema(id);
  if (!fn) throw new Error(`schema ${id} is not in the schema folder`);
  const temp = `${file}.${process.pid}.tmp`;
  try {
    const code = (standaloneCode as unknown as { default?: typeof standaloneCode }).default ?? standaloneCode;
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(temp, code(ajv, fn));
    renameSync(temp, file);
  } catch {
    try {
      unlinkSync(temp);
    } catch {
      // nothing was written
    }
  }
  return fn;
}

/**
 * Makes schemaErrors() use the kept code for schema `id`: loaded when it exists, else compiled now and kept for the
 * next process. Returns whether the kept code was loaded.
 */
export function usePrecompiledValidator(id: string = ECHO_RECORD_SCHEMA_ID): boolean {
  const file = precompiledFile(id);
  let fn: Validate | undefined;
  try {
    fn = require(file) as Validate;
  } catch {
    fn = undefined;
  }
  if (typeof fn === 'function') {
    useFirstErrorValidator(id, fn);
    return true;
  }
  const compiled = compileAndKeep(id, file);
  if (compiled) useFirstErrorValidator(id, compiled);
  return false;
}
