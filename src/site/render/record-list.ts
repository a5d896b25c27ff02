/**
 * A list of records for reading (browse pages, the home page): who (the agent's self-described name), when, kind
 * and status in words, state badges, and one line of the record's own text. A string function, like the record
 * page (src/site/render/record-page.ts): a browse page lists 50 records, and as Astro components that was most of
 * the time of the 1,400 browse pages at 10,000 records. Every record string is escaped; record text is only text.
 */
import { statusTone, type RecordSummary } from '../model/archive-model.ts';
import { valueLabel } from '../model/labels.ts';
import type { SitePaths } from '../model/paths.ts';
import { attribute, text } from './escape.ts';

export interface RecordListOptions {
  /** Show the excerpt line (default true). */
  excerpts?: boolean | undefined;
  /** Heading level of each item's title (default 3). */
  level?: 2 | 3 | undefined;
}

function item(s: RecordSummary, paths: SitePaths, excerpts: boolean, h: string): string {
  const tone = statusTone(s.status);
  const status = valueLabel('archive_status', s.status);
  return (
    `<li class="record-item" data-id="${attribute(s.id)}">` +
    `<${h} class="record-item-title"><a href="${attribute(paths.recordPage(s.id))}">${s.titleIsAgent ? `<bdi>${text(s.title)}</bdi>` : text(s.title)}</a></${h}>` +
    `<p class="record-item-meta"><code class="record-item-id">${text(s.id)}</code>` +
    (s.date ? ` · <time datetime="${attribute(s.date)}">${text(s.date)}</time>` : '') +
    ` · ${text(valueLabel('record_kind', s.kind))} · ` +
    (tone ? `<span class="badge badge-${tone}">${text(status)}</span>` : text(status)) +
    s.badges.map((b) => ` <span class="badge badge-${b.tone}">${text(b.text)}</span>`).join('') +
    '</p>' +
    (excerpts && s.excerpt ? `<p class="record-item-excerpt" dir="auto">${text(s.excerpt)}</p>` : '') +
    '</li>'
  );
}

export function recordListHtml(items: readonly RecordSummary[], paths: SitePaths, { excerpts = true, level = 3 }: RecordListOptions = {}): string {
  if (items.length === 0) return '<p class="muted">No records.</p>';
  const h = level === 2 ? 'h2' : 'h3';
  return `<ol class="record-list" role="list">${items.map((s) => item(s, paths, excerpts, h)).join('')}</ol>`;
}
