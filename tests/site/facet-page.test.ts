/**
 * The facet pages (/browse/<facet>/, src/site/render/facet-page.ts), made from the project's own model
 * (archiveModelOf) over a small archive: each value linked to its listing by its slug, with its label, the value as
 * the record holds it (or "(field absent)") and how many records list it, withdrawn ones included; the "What it
 * means" column only when some value has a meaning; the sentence naming the row of records without a value; the
 * facet's description as the lead; every value escaped (a hostile value inside a link's attribute and as text); and
 * every link under the site's base. The whitespace fragments below are those `astro build` made when these pages
 * were Astro pages (src/pages/browse/[facet]/index.astro): the renderer keeps their bytes.
 */
import { DomUtils, parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import type { SiteRecord } from '../../src/site/build/2-read-archive.ts';
import { FACET_DESCRIPTIONS, type FacetCounts } from '../../src/site/model/facets.ts';
import { sitePaths } from '../../src/site/model/paths.ts';
import { archiveModelOf } from '../../src/site/model/site-model.ts';
import { text } from '../../src/site/render/escape.ts';
import { facetDocument } from '../../src/site/render/facet-page.ts';
import type { SiteFrame } from '../../src/site/render/page-frame.ts';
import { expectInPageFrame } from '../helpers/page-frame.ts';
import { REMOVE } from '../helpers/records.ts';
import { echoWith, publishRecord, type TestRecord } from '../publish/helpers.ts';

const frame: SiteFrame = { paths: sitePaths('/'), site: 'https://archive.example', stylesheet: '/styles/site.css?v=1' };
const HOSTILE = '<b>"deep"</b> & more';

const record = (day: number, changes: Record<string, unknown> = {}) =>
  publishRecord(`2026/echo-2026-03-${String(day).padStart(2, '0')}-${String(day).padStart(6, '0')}.json`, echoWith(changes));
const modelOf = (records: TestRecord[]) => archiveModelOf(records as unknown as SiteRecord[]);

// verification levels V3 (three, one withdrawn), V4+ and V6 (both kept for older records only), none stated; one hostile context depth
const RECORDS = [
  record(1),
  record(2, { '/verification_status': 'invalidated', '/archive_status': 'archived_non_attestation' }),
  record(3, { '/verification_level': 'V4+' }),
  record(4, { '/verification_level': 'V6' }),
  record(5, { '/verification_level': REMOVE }),
  record(6, { '/context_depth': HOSTILE }),
];
const model = modelOf(RECORDS);
const countsOf = (key: string, m = model): FacetCounts => m.facetCounts.find((c) => c.facet.key === key)!;
const page = (key: string, m = model, f = frame) => facetDocument(countsOf(key, m), f);

const doc = (html: string) => parseDocument(html);
const cells = (html: string, name: 'th' | 'td') => DomUtils.getElementsByTagName(name, doc(html).children).map((e) => DomUtils.textContent(e));
const rows = (html: string) => DomUtils.getElementsByTagName('tr', doc(html).children).slice(1).map((tr) => DomUtils.getElementsByTagName('td', tr).map((e) => DomUtils.textContent(e).trim()));

describe('/browse/<facet>/', () => {
  const levels = page('verification_level');

  it("is a whole document in the page frame: the facet's label as title, its description, its own canonical link, Browse current", () => {
    const meta = { title: 'Verification level', description: 'Echo records by verification level.', pathname: '/browse/verification_level/', section: 'browse' as const };
    expectInPageFrame(levels, frame, meta);
    expect(levels).toContain('<title>Verification level · Echo archive</title>');
    expect(levels).toContain('<link rel="canonical" href="https://archive.example/browse/verification_level/">');
    expect(levels).toContain('<a href="/browse/" aria-current="page">Browse</a>');
  });

  it('has a breadcrumb back to all records, the heading, and the facet\'s description as the lead', () => {
    expect(levels).toContain(
      '<main id="main" class="site-main" tabindex="-1"> <nav class="breadcrumb" aria-label="Breadcrumb"> <a href="/browse/">Records</a> ' +
        '<span aria-hidden="true">/</span> <span aria-current="page">Verification level</span> </nav> <h1>Verification level</h1> ' +
        `<p class="lead">${text(FACET_DESCRIPTIONS.verification_level)}</p><div class="table-wrap" role="region" aria-label="Records by verification level" tabindex="0">`,
    );
    expect(levels).toContain("on the archive&#39;s older scale");
    expect(levels).toContain('<caption class="visually-hidden">Records by verification level</caption>');
  });

  it('lists each value in order, linked to its listing by its slug, with what it means, the value in the record and its count', () => {
    expect(cells(levels, 'th')).toEqual(['Verification level', 'What it means', 'Value in the record', 'Records listed']);
    expect(rows(levels)).toEqual([
      ['V3', 'A hash of the work computed by the machine and compared with the published one.', 'V3', '3'],
      ['V4+', 'An independent implementation of the checks, with its digest (kept for older records only).', 'V4+', '1'],
      ['V6', 'Physical evidence on top of V5 (kept for older records only).', 'V6', '1'],
      // no meaning for this value: an empty cell, as the column is there
      ['Not stated', '', '(field absent)', '1'],
    ]);
    const links = DomUtils.getElementsByTagName('a', doc(levels.slice(levels.indexOf('<tbody>'), levels.indexOf('</tbody>'))).children).map((a) => a.attribs.href);
    expect(links).toEqual(['/browse/verification_level/V3/', '/browse/verification_level/V4-plus/', '/browse/verification_level/V6/', '/browse/verification_level/not-stated/']);
    expect(levels).toContain(
      '<tr> <td> <a href="/browse/verification_level/not-stated/">Not stated</a> </td> <td></td> <td><span class="muted">(field absent)</span></td> <td class="num">1</td> </tr> </tbody>',
    );
  });

  it('counts every record listed, withdrawn ones included, so the numbers add up to the records listed', () => {
    const statuses = page('archive_status');
    expect(rows(statuses)).toEqual([
      ['Accepted echo', 'accepted_echo', '5'],
      ['Archived non attestation', 'archived_non_attestation', '1'],
    ]);
    for (const c of model.facetCounts) expect(c.values.reduce((n, v) => n + v.count, 0), c.facet.key).toBe(RECORDS.length);
  });

  it('has the "What it means" column only when some value has a meaning', () => {
    const statuses = page('archive_status');
    expect(statuses).not.toContain('What it means');
    expect(statuses).toContain('<th scope="col">Archive status</th>  <th scope="col">Value in the record</th>');
    expect(statuses).toContain('<tr> <td> <a href="/browse/archive_status/accepted_echo/">Accepted echo</a> </td>  <td><code>accepted_echo</code></td> <td class="num">5</td> </tr>');
    // only the records without a record type have a meaning there
    const types = page('record_type');
    expect(cells(types, 'th')).toEqual(['Record type', 'What it means', 'Value in the record', 'Records listed']);
    expect(rows(types)).toEqual([
      ['Not sent through the gateway', 'Added to the archive directly, by pull request, not sent through the intake gateway.', '(field absent)', String(RECORDS.length)],
    ]);
    expect(page('verification_level', modelOf([record(1)]))).toContain('<th scope="col">What it means</th>');
  });

  it('names the row of records without a value: its own label when there is one, else "Not stated"', () => {
    const sentence = (label: string) => `Records without a value are counted under "${label}" (when there are any), so the\n    numbers add up to every record listed.\n</p> </main>`;
    expect(page('record_type')).toContain(sentence('Not sent through the gateway'));
    expect(levels).toContain(sentence('Not stated'));
    expect(page('archive_status')).toContain(sentence('Not stated'));
    expect(levels).toContain(
      "</tbody> </table> </div> <p class=\"muted small\">\nRecords listed include withdrawn records, which are listed (and marked) but left out of the home page's counts.\n    Records without",
    );
  });

  it('escapes a hostile value: " and & inside its link\'s attribute, its label and value as text, no element made of it', () => {
    const depth = page('context_depth');
    expect(depth).toContain('<a href="/browse/context_depth/<b>&quot;deep&quot;</b> &amp; more/">&lt;b&gt;&quot;deep&quot;&lt;/b&gt; &amp; more</a>');
    expect(depth).toContain('<td><code>&lt;b&gt;&quot;deep&quot;&lt;/b&gt; &amp; more</code></td>');
    const hrefs = DomUtils.getElementsByTagName('a', doc(depth).children).map((a) => a.attribs.href);
    expect(hrefs).toContain(`/browse/context_depth/${HOSTILE}/`);
    expect(DomUtils.getElementsByTagName('b', doc(depth).children)).toEqual([]);
    expect(rows(depth).map((r) => r[1])).toContain(HOSTILE);
  });

  it('has an empty table for a facet no record has, and the sentence names "Not stated"', () => {
    const empty = page('record_kind', modelOf([]));
    expect(empty).toContain('<th scope="col">Record kind</th>  <th scope="col">Value in the record</th>');
    expect(empty).toContain('<tbody>  </tbody>');
    expect(empty).not.toContain('What it means');
    expect(empty).toContain('counted under "Not stated"');
  });

  it('has no lead paragraph for a facet without a description', () => {
    const counts: FacetCounts = { facet: { key: 'made_up', label: 'Made up', values: ['a'] }, values: [{ value: 'a', slug: 'a', label: 'A', count: 3 }] };
    const html = facetDocument(counts, frame);
    expect(html).not.toContain('class="lead"');
    expect(html).toContain('<h1>Made up</h1> <div class="table-wrap" role="region" aria-label="Records by made up" tabindex="0">');
    expect(html).toContain('<link rel="canonical" href="https://archive.example/browse/made_up/">');
  });

  it('links everything under the base path', () => {
    const archive: SiteFrame = { paths: sitePaths('/archive/'), site: 'https://example.org/archive', stylesheet: '/archive/styles/site.css?v=1' };
    const based = page('verification_level', model, archive);
    expect(based).toContain('<link rel="canonical" href="https://example.org/archive/browse/verification_level/">');
    expect(based).toContain('<a href="/archive/browse/">Records</a>');
    expect(based).toContain('<a href="/archive/browse/verification_level/V4-plus/">V4+</a>');
    const main = based.slice(based.indexOf('<main'), based.indexOf('</main>'));
    expect(main).not.toMatch(/href="\/(?!archive\/)/);
  });
});
