/**
 * Schema findings for record-chain documents: the core's translation of Ajv errors (src/core/schema) in the
 * record-chain's wording, and plain messages for the "one of these fields" choices.
 */
import type { Finding } from '../diagnostics/diagnostic.ts';
import { schemaErrors } from '../schema/compile.ts';
import { translateSchemaErrors } from '../schema/translate-errors.ts';

const ANY_OF: Record<string, { message: string; hint: string }> = {
  '/record': {
    message: 'a propagation record says where the action took place: give channel, url or both',
    hint: 'Add "channel" (in words, e.g. "reply in a public forum thread") or "url" (the public address of the post), or both.',
  },
  '/record/target': {
    message: 'a correction names the record it corrects: give target.record_id, target.submission_sha256 or both',
    hint: 'Add the archive record id ("record_id") or the earlier submission\'s submission_sha256.',
  },
};

export function chainSchemaFindings(value: unknown, schemaId: string, documentName: string): Finding[] {
  const findings = translateSchemaErrors(schemaErrors(value, schemaId), {
    schemaName: documentName,
    closedTopLevelHint: `The top level of a ${documentName} is closed: remove these fields.`,
    conditionalHint: '',
  });
  for (const f of findings) {
    if (f.rule === 'schema/any-of' && ANY_OF[f.pointer]) {
      f.message = ANY_OF[f.pointer]!.message;
      f.hint = ANY_OF[f.pointer]!.hint;
      continue;
    }
    if (f.rule === 'schema/min-items') {
      f.hint = 'Add the missing items: saying honestly what limits a claim, what was not checked and what is not claimed is part of the record.';
    }
  }
  return findings;
}
