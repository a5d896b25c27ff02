/**
 * The first-error validator kept as Ajv's standalone code (src/core/schema/precompiled.ts) says what the compiled one
 * says, on valid and mutated records; its file is named by the schemas, so a changed schema is a new file.
 */
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newAjv } from '../../src/core/schema/compile.ts';
import { ECHO_RECORD_SCHEMA_ID } from '../../src/core/schema/documents.ts';
import { precompiledFile, PRECOMPILED_DIR, usePrecompiledValidator } from '../../src/core/schema/precompiled.ts';
import { fuzzParameters, keysOf, mutateValue, mutationArbitrary, stringsOf } from '../fuzz/arbitraries.ts';
import { validEcho } from '../helpers/records.ts';

const require = createRequire(import.meta.url);

describe('precompiled first-error validator', () => {
  it('is kept in the cache folder under a name made from the schemas, and loaded from there', () => {
    usePrecompiledValidator();
    const file = precompiledFile();
    expect(file.startsWith(PRECOMPILED_DIR)).toBe(true);
    expect(file).toMatch(/validate-[0-9a-f]{32}\.cjs$/);
    expect(existsSync(file)).toBe(true);
    expect(usePrecompiledValidator()).toBe(true);
    expect(precompiledFile('/api/discovery-provenance-schema.json')).not.toBe(file);
  });

  it('gives the compiled validator\'s verdict on valid and mutated records (property)', () => {
    usePrecompiledValidator();
    const kept = require(precompiledFile()) as (v: unknown) => boolean;
    const compiled = newAjv(false).getSchema(ECHO_RECORD_SCHEMA_ID)!;
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
      }),
      fuzzParameters(300),
    );
    expect(invalid).toBeGreaterThan(0);
  });
});
