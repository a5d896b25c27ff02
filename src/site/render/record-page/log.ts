/**
 * The record's place in the transparency log, as rows of the page's "The file" list: the leaf index of the current
 * bytes and every logged version (earlier versions linked by the hash of their bytes when the log kept them).
 */
import type { RecordLogView } from '../../../core/publish/records.ts';
import type { SitePaths } from '../../paths.ts';
import { attribute, text as esc } from '../escape.ts';

export function logRows(log: RecordLogView | undefined, paths: SitePaths): string {
  if (!log) return '';
  const leaf =
    log.leafIndex !== null
      ? `<dt>Transparency log leaf</dt><dd><code>${log.leafIndex}</code> <span class="muted">(verify: <code>readback --id</code> with the builder; see <a href="${attribute(paths.site('agents/'))}#transparency-log">the agent guide</a>)</span></dd>`
      : '<dt>Transparency log leaf</dt><dd><span class="muted">none yet: these bytes are not in the log (it is updated when maintainers log new records and versions)</span></dd>';
  if (log.versions.length === 0) return leaf;
  const items = log.versions
    .map((v, i) => {
      const hash = `<code class="hash">${esc(v.sha256)}</code>`;
      const what = v.current ? ' <span class="muted">(this file)</span>' : v.url ? ` <a href="${attribute(paths.site(v.url))}">earlier bytes</a>` : ' <span class="muted">(earlier bytes not kept)</span>';
      return `<li>Version ${i + 1}: leaf <code>${v.leafIndex}</code>, ${hash}${what}</li>`;
    })
    .join('');
  return `${leaf}<dt>Versions in the log</dt><dd><ol class="log-versions">${items}</ol></dd>`;
}
