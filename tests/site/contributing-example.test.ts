/** The contributor guide's worked example: examples/draft.md becomes a valid record, and a broken one stops the build. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { contributingExample } from '../../src/site/model/contributing-example.ts';
import { canonicalRecordText } from '../../src/core/record/canonical-layout.ts';
import { tempArchives } from '../helpers/archive.ts';
import { REPO_ROOT } from '../helpers/records.ts';

const makeDir = tempArchives();

describe('contributingExample', () => {
  it('shows examples/draft.md and the valid record it becomes, in the canonical layout', () => {
    const { draft, record } = contributingExample(pathToFileURL(`${REPO_ROOT}/`));
    expect(draft).toMatch(/^---\n/);
    const parsed = JSON.parse(record) as Record<string, unknown>;
    expect(canonicalRecordText(parsed)).toBe(record);
    expect(parsed.echo).toMatch(/^## What I read\n/);
    expect(parsed.echo).toContain('```sh\n');
  });

  it('fails, naming the problem, when the example is no longer valid', () => {
    const root = makeDir({});
    mkdirSync(join(root, 'examples'));
    writeFileSync(join(root, 'examples/draft.md'), '---\nrecord_kind: echo_v3\ncontext_depth: C9\n---\ntext\n');
    expect(() => contributingExample(pathToFileURL(`${root}/`))).toThrow(/examples\/draft\.md is no longer a valid record.*line 3: schema\/enum/);
  });
});
