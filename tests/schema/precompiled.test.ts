/**
 * The first-error validator kept as Ajv's standalone code (src/core/schema/precompiled.ts) says what the compiled one
 * says, on valid and mutated records; its file is named by the schemas, so a changed schema is a new file.
 */
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ValidateFunction } from 'ajv';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newAjv, provideFirstErrorValidator, schemaErrors } from '../../src/core/schema/compile.ts';
import { ECHO_RECORD_SCHEMA_ID } from '../../src/core/schema/documents.ts';
import { precompiledFile, PRECOMPILED_DIR, usePrecompiledValidators, usePrecompiledValidatorsWhenNeeded } from '../../src/core/schema/precompiled.ts';
import { fuzzParameters, keysOf, mutateValue, mutationArbitrary, stringsOf } from '../fuzz/arbitraries.ts';
import { validEcho } from '../helpers/records.ts';

const require = createRequire(import.meta.url);

describe('precompiled first-error validator', () => {
  it('is kept in the cache folder under a name made from the schemas, and loaded from there', () => {
    usePrecompiledValidators();
    const file = precompiledFile();
    expect(file.startsWith(PRECOMPILED_DIR)).toBe(true);
    expect(file).toMatch(/validate-[0-9a-f]{32}\.cjs$/);
    expect(existsSync(file)).toBe(true);
    expect(usePrecompiledValidators()).toBe(true);
    expect(precompiledFile('/api/discovery-provenance-schema.json')).not.toBe(file);
  });

  it('compiles again when the kept code is missing, and removes code kept for other schemas', () => {
    const stale = join(PRECOMPILED_DIR, `validate-${'0'.repeat(32)}.cjs`);
    mkdirSync(PRECOMPILED_DIR, { recursive: true });
    writeFileSync(stale, 'module.exports = () => true;\n');
    rmSync(precompiledFile(), { force: true });
    delete require.cache[precompiledFile()]; // as a new process would find it: not loaded yet
    expect(usePrecompiledValidators()).toBe(false);
    expect(existsSync(precompiledFile())).toBe(true);
    expect(existsSync(stale)).toBe(false);
  });

  it('keeps the all-errors validator beside it', () => {
    usePrecompiledValidators();
    expect(existsSync(precompiledFile(ECHO_RECORD_SCHEMA_ID, 'all-errors'))).toBe(true);
    expect(precompiledFile(ECHO_RECORD_SCHEMA_ID, 'all-errors')).not.toBe(precompiledFile());
  });

  it('gives the compiled validators\' verdicts and errors on valid and mutated records (property)', () => {
    usePrecompiledValidators();
    const kept = require(precompiledFile()) as (v: unknown) => boolean;
    const keptAll = require(precompiledFile(ECHO_RECORD_SCHEMA_ID, 'all-errors')) as ValidateFunction;
    const compiled = newAjv(false).getSchema(ECHO_RECORD_SCHEMA_ID)!;
    const compiledAll = newAjv(true).getSchema(ECHO_RECORD_SCHEMA_ID)!;
    const base = validEcho();
    expect(kept(base)).toBe(true);
    const mutations = mutationArbitrary(keysOf(base), stringsOf(base));
    let invalid = 0;
    fc.assert(
      fc.property(mutations, (m) => {
        const value = mutateValue(base, m.value);
        const verdict = compiled(value);
        if (!verdict) invalid++;
        expect(kept(value)).toBe(verdict);
        expect(keptAll(value)).toBe(verdict);
        compiledAll(value);
        expect(JSON.stringify(keptAll.errors)).toBe(JSON.stringify(compiledAll.errors));
      }),
      fuzzParameters(300),
    );
    expect(invalid).toBeGreaterThan(0);
  });

  it('can be put off until a record is checked: nothing is loaded before, the kept code after (a site build judging one file)', () => {
    usePrecompiledValidators(); // the kept code exists
    const file = precompiledFile();
    delete require.cache[file];
    usePrecompiledValidatorsWhenNeeded();
    expect(require.cache[file]).toBeUndefined();
    expect(schemaErrors(validEcho())).toEqual([]);
    expect(require.cache[file]).toBeDefined();
    const invalid = { ...validEcho(), context_depth: 'nowhere' };
    const compiledAll = newAjv(true).getSchema(ECHO_RECORD_SCHEMA_ID)!;
    compiledAll(invalid);
    expect(JSON.stringify(schemaErrors(invalid))).toBe(JSON.stringify(compiledAll.errors));
  });

  it('a provider that gives nothing leaves the validator to be compiled as usual', () => {
    let asked = 0;
    provideFirstErrorValidator(ECHO_RECORD_SCHEMA_ID, () => {
      asked++;
      return undefined;
    });
    expect(asked).toBe(0);
    expect(schemaErrors(validEcho())).toEqual([]);
    expect(schemaErrors({ ...validEcho(), context_depth: 'nowhere' }).length).toBeGreaterThan(0);
    expect(asked).toBe(1);
  });
});
