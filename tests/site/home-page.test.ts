/**
 * The home page (src/site/render/home-page.ts) and its count tables (src/site/render/count-table.ts), made from the
 * project's own model (archiveModelOf) over a small archive: the counts (withdrawn records listed but not counted,
 * attestations only as the model counts them), a count table per archive status and record kind with the "listed"
 * column only when something is withdrawn, the six newest records newest first, "no records yet" for an empty
 * archive, every record string and value escaped (a hostile agent name as text, a hostile value inside a link's
 * attribute), and every link under the site's base. The whitespace fragments below are those `astro build` made
 * when this page was an Astro page (src/pages/index.astro): the renderer keeps its bytes.
 */
import { DomUtils, parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import type { SiteRecord } from '../../src/site/build/2-read-archive.ts';
import { sitePaths } from '../../src/site/model/paths.ts';
import { archiveModelOf } from '../../src/site/model/site-model.ts';
import { countTableHtml } from '../../src/site/render/count-table.ts';
import { homeDocument } from '../../src/site/render/home-page.ts';
import type { SiteFrame } from '../../src/site/render/page-frame.ts';
import { expectInPageFrame } from '../helpers/page-frame.ts';
import { recordListHtml } from '../../src/site/render/record-list.ts';
import { echoWith, publishRecord, type TestRecord } from '../publish/helpers.ts';

const frame: SiteFrame = { paths: sitePaths('/'), site: 'https://archive.example', stylesheet: '/styles/site.css?v=1' };
const HOSTILE = '<script>alert("x")</script> & "quoted"';

/** A record archived on 2026-03-<day>, the `day`th of the archive: the later the day, the newer. */
const record = (day: number, changes: Record<string, unknown> = {}) =>
  publishRecord(`2026/echo-2026-03-${String(day).padStart(2, '0')}-${String(day).padStart(6, '0')}.json`, echoWith(changes));
const idOf = (day: number) => `echo-2026-03-${String(day).padStart(2, '0')}-${String(day).padStart(6, '0')}`;
const modelOf = (records: TestRecord[]) => archiveModelOf(records as unknown as SiteRecord[]);

const withdrawn = record(3, { '/archive_status': 'archived_non_attestation', '/verification_status': 'invalidated' });
const RECORDS = [
  record(1),
  record(2, { '/archive_status': 'accepted_independent_attestation', '/counts_as_independent_attestation': true }),
  withdrawn,
  // claims attestation, which never counts by itself
  record(4, { '/origin_classification/counts_as_formal_independent_attestation': true }),
  record(5),
  record(6, { '/archive_status': 'superseded', '/superseded_reason': 'Replaced.' }),
  record(7),
  record(8, { '/agent_identity/name_or_model': HOSTILE }),
];
const model = modelOf(RECORDS);
const html = homeDocument(model, frame);

const doc = (page: string) => parseDocument(page);
const byClass = (page: string, name: string) => DomUtils.findAll((e) => (e.attribs.class ?? '').split(' ').includes(name), doc(page).children);
const sectionOf = (page: string, heading: string) => page.slice(page.indexOf(`<section aria-labelledby="${heading}">`), page.indexOf('</section>', page.indexOf(`<section aria-labelledby="${heading}">`)));

describe('the home page', () => {
  it('is a whole document in the page frame: "Echo archive", its canonical link, the brand marked current', () => {
    expectInPageFrame(html, frame, { title: 'Echo archive', pathname: '/', section: 'home' });
    expect(html).toContain('<title>Echo archive</title>');
    expect(html).toContain('<link rel="canonical" href="https://archive.example/">');
    expect(html).toContain('<a class="brand" href="/" aria-current="page">');
  });

  it('shows the records counted, those counted as independent attestation and those withdrawn, and links all those listed', () => {
    expect(byClass(html, 'stat-value').map((e) => DomUtils.textContent(e))).toEqual(['7', '1', '1']);
    expect(byClass(html, 'stat-label').map((e) => DomUtils.textContent(e))).toEqual([
      'records counted',
      'counted as independent attestation',
      'withdrawn (listed, not counted)',
    ]);
    expect(html).toContain('<p class="more-link"><a href="/browse/">Browse all 8 records →</a></p>');
    expect(html).not.toContain('no records yet');
  });

  it('has a count table per archive status and per record kind, the "listed" column beside the counts when a record is withdrawn', () => {
    const numbers = sectionOf(html, 'numbers-heading');
    expect(numbers).toContain(
      '<div class="count-tables"> <div class="table-wrap" role="region" aria-label="By archive status" tabindex="0"> <table> <caption>By archive status</caption> ' +
        '<thead> <tr> <th scope="col">Archive status</th> <th scope="col" class="num">Counted</th> <th scope="col" class="num">Listed (withdrawn included)</th> </tr> </thead>',
    );
    // the withdrawn record: listed on its value's page, not counted
    expect(numbers).toContain(
      '<tr> <td> <a href="/browse/archive_status/archived_non_attestation/">Archived non attestation</a> </td> <td class="num">0</td> <td class="num">1</td> </tr>',
    );
    expect(numbers).toContain('<tr> <td> <a href="/browse/archive_status/superseded/">Superseded</a> </td> <td class="num">1</td> <td class="num">1</td> </tr>');
    expect(numbers).toContain('aria-label="By record kind" tabindex="0"> <table> <caption>By record kind</caption> <thead> <tr> <th scope="col">Record kind</th>');
    expect(numbers).toContain('<tr> <td> <a href="/browse/record_kind/echo_v3/">Echo</a> </td> <td class="num">7</td> <td class="num">8</td> </tr> </tbody> </table> </div> </div>');
  });

  it('leaves the "listed" column out when nothing is withdrawn', () => {
    const none = homeDocument(modelOf(RECORDS.filter((r) => r !== withdrawn)), frame);
    expect(none).not.toContain('Listed (withdrawn included)');
    expect(none).toContain('<th scope="col" class="num">Counted</th>  </tr> </thead>');
    expect(none).toContain('<tr> <td> <a href="/browse/record_kind/echo_v3/">Echo</a> </td> <td class="num">7</td>  </tr>');
    expect(byClass(none, 'stat-value').map((e) => DomUtils.textContent(e))).toEqual(['7', '1', '0']);
  });

  it('lists the six newest records, newest first, as the record list shows them', () => {
    const items = byClass(html, 'record-item').map((e) => e.attribs['data-id']);
    expect(items).toEqual([8, 7, 6, 5, 4, 3].map(idOf));
    expect(sectionOf(html, 'newest-heading')).toContain(`archive's.</p> ${recordListHtml(model.summaries.slice(0, 6), frame.paths)} <p class="more-link">`);
    expect(html).not.toContain(idOf(2));
    expect(html).not.toContain(idOf(1));
  });

  it('says the archive has no records yet when it is empty, with no counts or tables', () => {
    const empty = homeDocument(modelOf([]), frame);
    expect(empty).toContain('<h2 id="numbers-heading">The archive in numbers</h2> <p class="muted">The archive has no records yet.</p> </section>');
    expect(empty).not.toContain('stat-value');
    expect(empty).not.toContain('<table>');
    expect(empty).toContain(`archive's.</p> <p class="muted">No records.</p> <p class="more-link"><a href="/browse/">Browse all 0 records →</a></p>`);
  });

  it("shows a hostile agent name as text: its <script> and quotes escaped, no element made of it", () => {
    expect(html).toContain('<bdi>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &quot;quoted&quot;</bdi>');
    expect(DomUtils.getElementsByTagName('script', doc(html).children)).toEqual([]);
    expect(DomUtils.getElementsByTagName('bdi', doc(html).children).map((e) => DomUtils.textContent(e))[0]).toBe(HOSTILE);
  });

  it('escapes a hostile value in the count table: " and & inside the link\'s attribute, the label as text', () => {
    const hostile = homeDocument(modelOf([record(1, { '/archive_status': '<i>"s"&' })]), frame);
    expect(hostile).toContain('<a href="/browse/archive_status/<i>&quot;s&quot;&amp;/">&lt;i&gt;&quot;s&quot;&amp;</a>');
    const links = DomUtils.getElementsByTagName('a', doc(hostile).children).filter((a) => (a.attribs.href ?? '').startsWith('/browse/archive_status/'));
    expect(links.map((a) => a.attribs.href)).toEqual(['/browse/archive_status/<i>"s"&/']);
    expect(DomUtils.getElementsByTagName('i', doc(hostile).children)).toEqual([]);
  });

  it('keeps the whitespace the Astro page had: the counts in a fragment, the paragraphs\' line breaks and indentation', () => {
    expect(html).toContain('<h2 id="numbers-heading">The archive in numbers</h2>  <div class="stats"> <p class="stat"> <span class="stat-value">7</span>');
    expect(html).toContain('</table> </div> </div>  </section> <section aria-labelledby="newest-heading">');
    expect(html).toContain('<p class="lead">\nStructured statements by agents about what they understood of a published body of work: how much context they\n      had,');
    expect(html).toContain('(archive status\n<em>accepted independent attestation</em>), it is not withdrawn, not a test record, and not marked <em>do\n            not count');
    expect(html).toContain('<main id="main" class="site-main" tabindex="-1"> <section class="hero"');
    expect(html).toContain('</ul> </section> </main>');
  });

  it('links everything under the base path', () => {
    const archive: SiteFrame = { paths: sitePaths('/archive/'), site: 'https://example.org/archive', stylesheet: '/archive/styles/site.css?v=1' };
    const based = homeDocument(model, archive);
    expect(based).toContain('<link rel="canonical" href="https://example.org/archive/">');
    expect(based).toContain('<form class="hero-search" action="/archive/search/" method="get" role="search">');
    expect(based).toContain('<a href="/archive/browse/archive_status/superseded/">Superseded</a>');
    expect(based).toContain(`<a href="/archive/records/${idOf(8)}/">`);
    expect(based).toContain('<h3><a href="/archive/api/index.json">Public index</a></h3>');
    const main = based.slice(based.indexOf('<main'), based.indexOf('</main>'));
    expect(main).not.toMatch(/(href|action)="\/(?!archive\/)/);
  });
});

describe('countTableHtml', () => {
  const table = (counts: { value: string | null; label: string; count: number; listed: number }[], caption = 'By verification level') =>
    countTableHtml({ caption, heading: 'Verification level', facet: 'verification_level', counts }, frame.paths);

  it('links each value to its browse page by its slug (V4+ as V4-plus, no value as not-stated)', () => {
    const html = table([
      { value: 'V4+', label: 'V4+', count: 2, listed: 2 },
      { value: null, label: 'Not stated', count: 1, listed: 1 },
    ]);
    expect(DomUtils.getElementsByTagName('a', doc(html).children).map((a) => a.attribs.href)).toEqual([
      '/browse/verification_level/V4-plus/',
      '/browse/verification_level/not-stated/',
    ]);
  });

  it('adds the "listed" column, in the heading and on every row, only when some value has records withdrawn', () => {
    const some = table([
      { value: 'V1', label: 'V1', count: 2, listed: 2 },
      { value: 'V2', label: 'V2', count: 0, listed: 1 },
    ]);
    expect(DomUtils.getElementsByTagName('th', doc(some).children).map((e) => DomUtils.textContent(e))).toEqual(['Verification level', 'Counted', 'Listed (withdrawn included)']);
    expect(DomUtils.getElementsByTagName('td', doc(some).children).filter((e) => e.attribs.class === 'num').map((e) => DomUtils.textContent(e))).toEqual(['2', '2', '0', '1']);
    const none = table([{ value: 'V1', label: 'V1', count: 2, listed: 2 }]);
    expect(DomUtils.getElementsByTagName('th', doc(none).children)).toHaveLength(2);
    expect(none).toBe(
      '<div class="table-wrap" role="region" aria-label="By verification level" tabindex="0"> <table> <caption>By verification level</caption> <thead> <tr> ' +
        '<th scope="col">Verification level</th> <th scope="col" class="num">Counted</th>  </tr> </thead> <tbody> ' +
        '<tr> <td> <a href="/browse/verification_level/V1/">V1</a> </td> <td class="num">2</td>  </tr> </tbody> </table> </div>',
    );
  });

  it('escapes the caption in its attribute and as text, and each label', () => {
    const html = table([{ value: 'V1', label: '<b>"one"</b>', count: 1, listed: 1 }], 'By "level" & <kind>');
    expect(html).toContain('aria-label="By &quot;level&quot; &amp; <kind>"');
    expect(html).toContain('<caption>By &quot;level&quot; &amp; &lt;kind&gt;</caption>');
    expect(html).toContain('>&lt;b&gt;&quot;one&quot;&lt;/b&gt;</a>');
    const region = DomUtils.findOne((e) => e.attribs.role === 'region', doc(html).children)!;
    expect(region.attribs['aria-label']).toBe('By "level" & <kind>');
    expect(DomUtils.getElementsByTagName('b', doc(html).children)).toEqual([]);
  });
});
