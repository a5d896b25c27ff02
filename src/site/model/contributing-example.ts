/**
 * The worked example of the contributor guide (/contributing/): examples/draft.md as written, and the record file
 * `npm run new -- --from` makes of it, converted and judged by the core at build time, so the page shows what the
 * command does today and the build fails if the example stops being a valid record.
 */
import { readFileSync } from 'node:fs';
import { isError } from '../../core/diagnostics/diagnostic.ts';
import { draftJudge } from '../../core/draft/judge-draft.ts';

export const EXAMPLE_DRAFT_PATH = 'examples/draft.md';
/** The name the example is judged under (an archive path; the example is not part of the archive). */
const EXAMPLE_RECORD_PATH = '2026/echo-2026-11-24-000001.json';

export interface ContributingExample {
  draft: string;
  record: string;
}

export function contributingExample(projectRoot: URL): ContributingExample {
  const draft = readFileSync(new URL(EXAMPLE_DRAFT_PATH, projectRoot), 'utf8');
  const { text, diagnostics } = draftJudge(draft).judge({ root: '', files: [], recordAt: () => undefined }, EXAMPLE_RECORD_PATH);
  const errors = diagnostics.filter(isError);
  if (text === undefined || errors.length > 0) {
    throw new Error(
      `${EXAMPLE_DRAFT_PATH} is no longer a valid record, so the contributor guide cannot show it: ${errors.map((d) => `line ${d.line}: ${d.rule} ${d.message}`).join('; ')}`,
    );
  }
  return { draft, record: text };
}
