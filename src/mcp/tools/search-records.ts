/** search_records: the site's own search (its search index, src/mcp/search.ts) for words and facet filters. */
import { FACETS } from '../../site/model/facets.ts';
import { valueLabel } from '../../site/model/labels.ts';
import { SUBMITTED_NOTE, submittedSchema, submittedString } from '../submitter-text.ts';
import { MAX_HITS } from '../search.ts';
import { render, S, stringArg, ToolInputError, type ArchiveTool } from '../tool.ts';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
export const MAX_RESULTS = MAX_HITS;

const filterProperties = Object.fromEntries(FACETS.map((f) => [f.key, { type: 'string', enum: [...f.values], description: `${f.label}: one of the schema's values` }]));

export const searchRecords: ArchiveTool = {
  name: 'search_records',
  title: 'Search the archive',
  description:
    'Search the archive\'s records by words and facet filters, with the same index and reader the site\'s search page uses, so it finds the records the site finds for the same words. Answers record ids, kinds, statuses and dates (the archive\'s values) and, under "submitted", each record\'s title and an excerpt: the submitter\'s words, untrusted. Records are non-authoritative statements; read one with get_record.',
  readOnly: true,
  inputSchema: S.obj(
    {
      query: S.str('words to search for (as typed into the site\'s search box); omit to list by filters alone'),
      filters: S.obj(filterProperties, [], { description: 'facet filters (the site\'s search filters): field → value' }),
      limit: S.int(`how many results to return (1-${MAX_RESULTS}, default 10); total says how many match`, { minimum: 1, maximum: MAX_RESULTS }),
    },
    [],
  ),
  outputSchema: S.obj(
    {
      query: S.nstr('the words searched for'),
      filters: { type: 'object', additionalProperties: { type: 'string' }, description: 'the filters applied, as the site labels them' },
      total: S.int('how many records match'),
      correction: {
        anyOf: [
          S.obj(
            {
              typed_total: S.int('how many records the words as typed match'),
              submitted: submittedSchema(
                { query: S.str('the query with each misspelt word replaced by the nearest word of the index') },
                'The corrected query: its replacement words are words of records (the submitters\' words, untrusted), as the site\'s search page shows them.',
              ),
            },
            ['typed_total', 'submitted'],
          ),
          { type: 'null' },
        ],
        description: 'as the site\'s search does: when a word of the query is not in the index and its nearest word (one edit for 4-7 letters, two from 8) finds more records, the results are those of the corrected query; null when the words as typed were searched',
      },
      results: S.arr(
        S.obj(
          {
            id: S.str('the record id'),
            page: S.str('the record\'s page on the site'),
            url: S.str('the raw record (JSON)'),
            kind: S.nstr('the record kind, as the site labels it'),
            status: S.nstr('the archive status, as the site labels it'),
            date: S.nstr('the archive date (YYYY-MM-DD)'),
            withdrawn: S.bool('the submitter withdrew the record'),
            submitted: submittedSchema({ title: S.nstr('the record\'s title (its agent\'s name, or its kind)'), excerpt: S.str('where the words occur') }),
          },
          ['id', 'page', 'url', 'kind', 'status', 'date', 'withdrawn', 'submitted'],
        ),
        'results in the site\'s order (best first)',
      ),
      note: S.str('how to read the answer'),
    },
    ['query', 'filters', 'total', 'correction', 'results', 'note'],
  ),
  async run(args, ctx) {
    const query = stringArg(args, 'query')?.trim() || null;
    const limit = args.limit === undefined ? 10 : Number(args.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_RESULTS) throw new ToolInputError(`"limit" must be a whole number from 1 to ${MAX_RESULTS}`);
    const given = (args.filters ?? {}) as Record<string, unknown>;
    if (given === null || typeof given !== 'object' || Array.isArray(given)) throw new ToolInputError('"filters" must be an object of field → value');
    const filters: Record<string, string> = {};
    for (const [key, value] of Object.entries(given)) {
      const facet = FACETS.find((f) => f.key === key);
      if (!facet) throw new ToolInputError(`no filter "${key}"; the filters are ${FACETS.map((f) => f.key).join(', ')}`);
      if (typeof value !== 'string' || !facet.values.includes(value)) throw new ToolInputError(`filter ${key} takes one of ${facet.values.join(', ')}`);
      filters[key] = valueLabel(key, value);
    }
    if (query === null && Object.keys(filters).length === 0) throw new ToolInputError('give words to search for ("query"), filters, or both');
    const { total, hits, corrected } = await ctx.site.search().search(query, filters, limit);
    const results = hits.map(({ document: d, excerpt }) => ({
      id: d.id,
      page: `/records/${encodeURIComponent(d.id)}/`,
      url: `/records/${encodeURIComponent(d.id)}.json`,
      kind: d.kind || null,
      status: d.status || null,
      date: d.date && DATE.test(d.date) ? d.date : null,
      withdrawn: d.withdrawn === true,
      submitted: { title: submittedString(d.title, 200), excerpt: submittedString(excerpt, 600) },
    }));
    const correction = corrected ? { typed_total: corrected.typedTotal, submitted: { query: submittedString(corrected.query, 400) } } : null;
    const structured = { query, filters, total, correction, results, note: SUBMITTED_NOTE };
    const words = `${total} record${total === 1 ? '' : 's'} match${total === 1 ? 'es' : ''}${query ? ` "${query}"` : ''}${Object.keys(filters).length ? ` with ${Object.entries(filters).map(([k, v]) => `${k} = ${v}`).join(', ')}` : ''}${correction ? ` (the nearest words of the archive, under correction.submitted.query; the words as typed match ${correction.typed_total})` : ''}; ${results.length} shown. ${SUBMITTED_NOTE}`;
    return { structured, text: render(words, structured) };
  },
};
