/** archive_stats: the public index's own counts (/api/index.json: record_count and counts). */
import { render, S, type ArchiveTool } from '../tool.ts';

export const archiveStats: ArchiveTool = {
  name: 'archive_stats',
  title: 'Archive counts',
  description: 'The archive\'s counts as its public index (/api/index.json) states them: how many records, and how many of each kind, status and other facet value. Counts of non-authoritative statements, not of verified facts.',
  readOnly: true,
  inputSchema: S.obj({}),
  outputSchema: S.obj(
    {
      index_url: S.str('the public index read'),
      record_count: S.int('records listed'),
      counts: { type: 'object', description: 'the index\'s counts object, as published (/api/public-index-schema.v1.json)' },
      sharded: S.bool('the index is a manifest of shards'),
    },
    ['index_url', 'record_count', 'counts', 'sharded'],
  ),
  async run(_args, ctx) {
    const body = await ctx.site.get('/api/index.json');
    const doc = JSON.parse(Buffer.from(body.bytes).toString('utf8')) as { record_count?: unknown; counts?: unknown; records?: unknown[]; shards?: unknown };
    const structured = {
      index_url: body.url,
      record_count: typeof doc.record_count === 'number' ? doc.record_count : Array.isArray(doc.records) ? doc.records.length : 0,
      counts: doc.counts !== null && typeof doc.counts === 'object' ? doc.counts : {},
      sharded: Array.isArray(doc.shards),
    };
    return { structured, text: render(`The public index ${body.url} lists ${structured.record_count} records.`, structured) };
  },
};
