/**
 * What the site's search index holds of a record (src/core/search/format.ts): the labels its results show, the
 * filter values it is found under, and its words (understanding summary, verification claim, echo as plain text),
 * the same parts the record page shows under "Submitted text". Built from the page's facts, so a result and the page
 * it links to agree.
 */
import { oneLineText } from '../../../core/markdown/render.ts';
import type { SearchDocumentInput } from '../../../core/search/format.ts';
import { FACETS, facetValue } from '../../model/facets.ts';
import { valueLabel } from '../../model/labels.ts';
import { pageOf, text, type Page } from './page.ts';
import type { RecordPageContext, RecordPageInput } from '../record-page.ts';

export function searchDocumentOfPage({ input, r, effective, flags, agentName, kindLabel, ctx }: Page): SearchDocumentInput {
  const { id, archiveDate } = input.entry;
  const echo = text(r.echo);
  // The echo's text as its page shows it: the text of the same sanitised HTML (which the page threads render once for both).
  const parts = [text(r.understanding_summary), text(r.verification_claim), echo === undefined ? undefined : oneLineText(ctx.echoHtml(echo))];
  // Search filters agree with the facet pages: the effective classification (DECISIONS 26).
  const filters: Record<string, string> = {};
  for (const f of FACETS) {
    const value = facetValue(effective, f.key);
    if (value !== null) filters[f.key] = valueLabel(f.key, value);
  }
  return {
    page: `records/${encodeURIComponent(id)}/`,
    id,
    title: agentName ?? kindLabel,
    kind: kindLabel,
    status: valueLabel('archive_status', text(r.archive_status) ?? ''),
    date: archiveDate,
    withdrawn: flags.withdrawn,
    text: parts.filter((p): p is string => p !== undefined && p !== '').join('\n\n'),
    filters,
  };
}

/** The search document of a record page's input (the page's own facts; no HTML is rendered). */
export function recordSearchDocument(input: RecordPageInput, ctx: RecordPageContext): SearchDocumentInput {
  return searchDocumentOfPage(pageOf(input, ctx));
}
