/**
 * DECISIONS 21: the published schema carries every rule JSON Schema can express. An agent that checks its record
 * with any JSON Schema 2020-12 validator and the documents under /api/ must reach the archive's verdict on those
 * rules. So this test uses plain Ajv (ajv + ajv-formats, default options, no project code) and only the schema
 * files the site serves byte for byte under /api/ (src/site/model/schemas.ts serves schemas/<file> for each $id).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsImport from 'ajv-formats';
import fg from 'fast-glob';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/records.ts';
import { PASSING_NEIGHBOURS, RULE_MUTATIONS, SCHEMA_RULE_IDS } from '../helpers/rule-mutations.ts';

const addFormats = (addFormatsImport as unknown as { default?: typeof addFormatsImport }).default ?? addFormatsImport;
const ECHO = '/api/echo-record-schema.v3.json';

function plainAjv(): (record: unknown) => boolean {
  const ajv = new Ajv2020();
  addFormats(ajv);
  for (const file of readdirSync(resolve(REPO_ROOT, 'schemas'))) {
    const doc = JSON.parse(readFileSync(resolve(REPO_ROOT, 'schemas', file), 'utf8')) as { $id: string };
    if (doc.$id.startsWith('/api/')) ajv.addSchema(doc);
  }
  const validate = ajv.getSchema(ECHO)!;
  return (record) => validate(record) as boolean;
}

const accepts = plainAjv();

describe('plain Ajv with only the published schemas', () => {
  it.each(RULE_MUTATIONS.map((m) => [m.rule, m.name, m.record] as const))('refuses a record that breaks %s (%s)', (_rule, _name, record) => {
    expect(accepts(record)).toBe(false);
  });

  it.each(PASSING_NEIGHBOURS.map((m) => [m.rule, m.name, m.record] as const))('accepts a record that keeps %s (%s)', (_rule, _name, record) => {
    expect(accepts(record)).toBe(true);
  });

  it('accepts every record of the project archive (records/), all valid', async () => {
    const files = await fg('**/*.json', { cwd: resolve(REPO_ROOT, 'records'), ignore: ['.tlog/**'] });
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect([file, accepts(JSON.parse(readFileSync(resolve(REPO_ROOT, 'records', file), 'utf8')))]).toEqual([file, true]);
  });

  const SAMPLE = resolve(REPO_ROOT, '../shared/corpus/real-sample');
  const present = existsSync(join(SAMPLE, 'EXPECTED.json'));
  if (!present) console.warn(`[plain-ajv] real-sample case skipped: the corpus is not at ${SAMPLE} (it sits beside the repository, in ../shared).`);

  it.skipIf(!present)('reaches the real sample\'s expected verdict wherever a schema rule decides it', () => {
    const expected = JSON.parse(readFileSync(join(SAMPLE, 'EXPECTED.json'), 'utf8')) as Record<string, { valid: boolean; reasons: string[] }>;
    let refused = 0;
    let valid = 0;
    for (const [path, { valid: ok, reasons }] of Object.entries(expected)) {
      let record: unknown;
      try {
        record = JSON.parse(readFileSync(join(SAMPLE, 'archive', path), 'utf8'));
      } catch {
        continue; // not JSON: the strict reader's finding, before any schema
      }
      const bySchema = reasons.some((r) => r.startsWith('schema/') || SCHEMA_RULE_IDS.some((id) => r.startsWith(`${id}:`)));
      if (ok) {
        valid++;
        expect([path, accepts(record)]).toEqual([path, true]);
      } else if (bySchema) {
        refused++;
        expect([path, accepts(record)]).toEqual([path, false]);
      }
    }
    expect(valid).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
  });
});
