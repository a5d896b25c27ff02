/**
 * ARCHITECTURE.md cannot drift from the tree: every backticked `src/…`, `scripts/…` or `tests/…` path it names exists.
 * (A moved or renamed file fails here until the page is updated.)
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/records.ts';

/** The repository paths a Markdown text names in backticks. */
function namedPaths(markdown: string): string[] {
  return [...markdown.matchAll(/`((?:src|scripts|tests)\/[^`\s]*)`/g)].map((m) => m[1]!);
}

function missingPaths(markdown: string, root: string): string[] {
  return namedPaths(markdown).filter((path) => !existsSync(join(root, path)));
}

describe('ARCHITECTURE.md', () => {
  const text = readFileSync(join(REPO_ROOT, 'ARCHITECTURE.md'), 'utf8');

  it('names only paths that exist', () => {
    // The page names the build steps, the core modules and the callers: far more than a handful of paths.
    expect(namedPaths(text).length).toBeGreaterThan(30);
    expect(missingPaths(text, REPO_ROOT)).toEqual([]);
  });

  it('names every file of the build pipeline (src/site/build/), so a new step gets its line', () => {
    const steps = readdirSync(join(REPO_ROOT, 'src/site/build')).map((name) => `src/site/build/${name}`);
    expect(steps.length).toBeGreaterThan(5);
    expect(steps.filter((path) => !namedPaths(text).includes(path))).toEqual([]);
  });

  it('reports a path that does not exist, and ignores text outside backticks', () => {
    const sample = 'See `src/site/build/integration.ts`, `src/site/integration.ts` and `scripts/no-such.ts`; src/nowhere.ts is prose.';
    expect(missingPaths(sample, REPO_ROOT)).toEqual(['src/site/integration.ts', 'scripts/no-such.ts']);
  });
});
