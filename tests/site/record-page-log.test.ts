/**
 * The record page's transparency-log rows (src/site/render/record-page/log.ts), in "The file": the leaf of the
 * current bytes, or a plain "none yet"; every version with its leaf and hash, earlier bytes linked under the base
 * path when the log kept them; nothing at all for an archive without a log.
 */
import { describe, expect, it } from 'vitest';
import { sitePaths } from '../../src/site/paths.ts';
import { renderRecordPage } from '../../src/site/render/record-page.ts';
import { logRows } from '../../src/site/render/record-page/log.ts';
import { validEcho } from '../helpers/records.ts';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);

describe('transparency-log rows of a record page', () => {
  it('shows the leaf and every version, earlier bytes linked under the base path', () => {
    const html = logRows(
      { leafIndex: 9, versions: [{ leafIndex: 2, sha256: A, current: false, url: `/log/versions/${A}.json` }, { leafIndex: 9, sha256: B, current: true, url: null }] },
      sitePaths('/archive/'),
    );
    expect(html).toContain('<dt>Transparency log leaf</dt><dd><code>9</code>');
    expect(html).toContain(`<li>Version 1: leaf <code>2</code>, <code class="hash">${A}</code> <a href="/archive/log/versions/${A}.json">earlier bytes</a></li>`);
    expect(html).toContain(`<li>Version 2: leaf <code>9</code>, <code class="hash">${B}</code> <span class="muted">(this file)</span></li>`);
    expect(html).toContain('href="/archive/agents/#transparency-log"');
  });

  it('says plainly when the current bytes are not logged, and when earlier bytes were not kept', () => {
    const html = logRows({ leafIndex: null, versions: [{ leafIndex: 2, sha256: A, current: false, url: null }] }, sitePaths('/'));
    expect(html).toContain('none yet: these bytes are not in the log');
    expect(html).toContain('(earlier bytes not kept)');
  });

  it('adds nothing for an archive without a log, and sits in the page\'s file section otherwise', () => {
    expect(logRows(undefined, sitePaths('/'))).toBe('');
    const input = { entry: { id: 'echo-2026-03-01-000001', path: '2026/echo-2026-03-01-000001.json', archiveDate: '2026-03-01', sha256: B, record: validEcho() }, linkedReport: undefined, linkedFrom: [], supersededBy: [], supersedes: [], corrects: undefined, correctedBy: [] };
    const ctx = { paths: sitePaths('/'), site: 'https://archive.example', echoHtml: (e: string) => e.length.toString() };
    expect(renderRecordPage(input, ctx).main).not.toContain('Transparency log leaf');
    const logged = renderRecordPage({ ...input, log: { leafIndex: 4, versions: [{ leafIndex: 4, sha256: B, current: true, url: null }] } }, ctx).main;
    const file = logged.slice(logged.indexOf('id="file"'));
    expect(file).toContain('<dt>Transparency log leaf</dt><dd><code>4</code>');
  });
});
