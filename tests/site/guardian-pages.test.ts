/**
 * The guardian pages (src/site/render/guardian-pages.ts, DECISIONS 25, docs/guardians.md section 5), made from the
 * project's own derivation (deriveArchiveViews) over guardian records as intake writes them: /guardians/ with every
 * guardian's number, type, status (a badge only for a key reported compromised or possibly compromised), the record
 * that set it and its count of signed records, "No guardian is registered yet" on an empty registry, and the
 * registrations that numbered nothing only when there are some; /guardians/<id>/ with its banner (only for those two
 * statuses), history, application mode when given, declared intent as inert text, and the records it signed with
 * their warnings and the warned-records sentence. The whitespace fragments below are those `astro build` made when
 * these pages were Astro pages: the renderers keep their bytes.
 */
import { parseDocument, DomUtils } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { deriveArchiveViews } from '../../src/core/publish/archive-views.ts';
import { sitePaths } from '../../src/site/model/paths.ts';
import { guardianDocument, guardiansDocument } from '../../src/site/render/guardian-pages.ts';
import type { SiteFrame } from '../../src/site/render/page-frame.ts';
import { expectInPageFrame } from '../helpers/page-frame.ts';
import { at, newGuardian, registration, retirement, signedEcho, type TestGuardian } from '../helpers/guardian-records.ts';
import { echoWith } from '../helpers/records.ts';
import type { TestRecord } from '../publish/helpers.ts';

const frame: SiteFrame = { paths: sitePaths('/'), site: 'https://archive.example', stylesheet: '/styles/site.css?v=1' };
const HOSTILE = 'I keep this key safe. </p><script>alert("x")</script> & "quoted" <b>bold</b>';

const g1 = newGuardian(); // compromised
const g2 = newGuardian(); // retired, registered with an application mode
const g3 = newGuardian(); // possibly compromised
const g4 = newGuardian(); // active, signed nothing
const g5 = newGuardian(); // active, signed one record

const reg1 = at(1, 1, registration(g1, { oath: HOSTILE }));
const before1 = at(2, 1, signedEcho(g1));
const reg2 = at(2, 2, registration(g2, { type: 'human_with_ai_agent', mode: 'joint_human_ai', oath: 'I sign what I read.' }));
const compromise1 = at(3, 1, retirement(g1, 'compromised', { id: reg1.id, sha256: reg1.sha256 }));
const after1 = at(4, 1, signedEcho(g1));
const duplicate1 = at(4, 2, registration(g1)); // ignored, and signed by g1 after its compromise
const reg3 = at(5, 1, registration(g3));
const possibly3 = at(6, 1, retirement(g3, 'possibly_compromised', { id: reg3.id, sha256: reg3.sha256 }));
const after3a = at(7, 1, signedEcho(g3));
const after3b = at(7, 2, signedEcho(g3));
const retire2 = at(8, 1, retirement(g2, 'retired', { id: reg2.id, sha256: reg2.sha256 }));
const plain = at(8, 2, echoWith({}));
const reg4 = at(9, 1, registration(g4));
const reg5 = at(9, 2, registration(g5));
const echo5 = at(10, 1, signedEcho(g5));

const ALL = [reg1, before1, reg2, compromise1, after1, duplicate1, reg3, possibly3, after3a, after3b, retire2, plain, reg4, reg5, echo5];

const registryOf = (records: TestRecord[]) => deriveArchiveViews(records).registry;
const full = registryOf(ALL);
const guardianOf = (registry: ReturnType<typeof registryOf>, g: TestGuardian) => registry.guardians.find((x) => x.guardian_id === g.key.guardianId)!;
const page = (g: TestGuardian, registry = full) => guardianDocument(guardianOf(registry, g), registry, frame);

/** The /guardians/ table row of `g`. */
function rowOf(html: string, g: TestGuardian): string {
  const rows = html
    .split('<tr>')
    .map((r) => r.slice(0, r.indexOf('</tr>')))
    .filter((r) => r.includes(`<code>${g.key.guardianId}</code>`));
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

const link = (id: string, paths = frame.paths) => `<a href="${paths.recordPage(id)}"><code>${id}</code></a>`;
const mainOf = (html: string) => html.slice(html.indexOf('<main'), html.indexOf('</main>'));

describe('/guardians/', () => {
  const html = guardiansDocument(full, frame);

  it('is a whole document in the page frame: title, description, canonical link, the Guardians section current', () => {
    const meta = {
      title: 'Guardians',
      description: 'The guardian registry: keys that registered as voluntary guardians, their status and the records they signed. Guardianship is not authority.',
      pathname: '/guardians/',
      section: 'guardians' as const,
    };
    expectInPageFrame(html, frame, meta);
    expect(html).toContain('<title>Guardians · Echo archive</title>');
    expect(html).toContain('<link rel="canonical" href="https://archive.example/guardians/">');
    expect(html).toContain('<a href="/guardians/" aria-current="page">Guardians</a>');
  });

  it("states the boundary and links the registry's document and its schema for agents", () => {
    expect(html).toContain('<p class="notice">Guardianship changes no authority, verification level or count.');
    expect(html).toContain('For agents: <a href="/api/guardian-registry.json"><code>/api/guardian-registry.json</code></a> (<a href="/api/guardian-registry-schema.v1.json">schema</a>)');
  });

  it('lists every guardian in registry order: number, link to its page, type and status in words, the record that set the status, records signed', () => {
    expect(full.guardians.map((g) => g.guardian_id)).toEqual([g1, g2, g3, g4, g5].map((g) => g.key.guardianId));
    const order = [g1, g2, g3, g4, g5].map((g) => html.indexOf(`<code>${g.key.guardianId}</code>`));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(rowOf(html, g1)).toBe(
      ` <td>00001</td> <td><a href="/guardians/${g1.key.guardianId}/"><code>${g1.key.guardianId}</code></a></td> <td dir="auto">ai agent</td> ` +
        `<td><span class="badge badge-warn">compromised</span></td> <td>${link(compromise1.id)}</td> <td class="num">3</td> `,
    );
    expect(rowOf(html, g2)).toBe(
      ` <td>00002</td> <td><a href="/guardians/${g2.key.guardianId}/"><code>${g2.key.guardianId}</code></a></td> <td dir="auto">human with ai agent</td> ` +
        `<td>retired</td> <td>${link(retire2.id)}</td> <td class="num">0</td> `,
    );
    // the record that set the status: the registration while nothing else did
    expect(rowOf(html, g4)).toContain(`<td>active</td> <td>${link(reg4.id)}</td> <td class="num">0</td>`);
    expect(rowOf(html, g5)).toContain('<td>00005</td>');
    expect(rowOf(html, g5)).toContain('<td class="num">1</td>');
  });

  it('marks a status with a badge only when the key is reported compromised or possibly compromised', () => {
    expect(rowOf(html, g1)).toContain('<span class="badge badge-warn">compromised</span>');
    expect(rowOf(html, g3)).toContain('<td><span class="badge badge-warn">possibly compromised</span></td>');
    expect(rowOf(html, g2)).not.toContain('badge');
    expect(rowOf(html, g4)).not.toContain('badge');
    expect(html.match(/badge-warn/g)).toHaveLength(2);
  });

  it('lists the registrations that numbered nothing, with the key they named and why, only when there are some', () => {
    expect(html).toContain(
      ` <h2>Registrations that numbered nothing</h2> <ul> <li> ${link(duplicate1.id)}  (<code>${g1.key.guardianId}</code>): the key is already registered as guardian 00001 </li> </ul> </main>`,
    );
    const none = guardiansDocument(registryOf(ALL.filter((r) => r !== duplicate1)), frame);
    expect(none).not.toContain('Registrations that numbered nothing');
    expect(none).toContain('</tbody> </table> </div></main>');
  });

  it('an empty registry says "No guardian is registered yet." and has no table', () => {
    const empty = guardiansDocument(registryOf([plain]), frame);
    expect(empty).toContain('(<a href="/api/guardian-registry-schema.v1.json">schema</a>)</p> <p class="muted">No guardian is registered yet.</p></main>');
    expect(empty).not.toContain('<table>');
    expect(empty).not.toContain('Registrations that numbered nothing');
    expect(html).not.toContain('No guardian is registered yet');
  });

  it('keeps the lead paragraph as the Astro page left it (its line breaks and indentation)', () => {
    expect(mainOf(html)).toContain(
      '<main id="main" class="site-main" tabindex="-1"> <h1>Guardians</h1> <p class="lead">\nA guardian is a key that registered itself, in its own words, as a voluntary guardian. The archive numbers\n' +
        "    registrations in archive order, one per key, and keeps track of each key's status and of what it signed.\n</p> <p class=\"notice\">",
    );
  });
});

describe('/guardians/<guardian_id>/', () => {
  it('is a whole document in the page frame: "Guardian <number>", its status in the description, its own canonical link', () => {
    const html = page(g3);
    const meta = {
      title: 'Guardian 00003',
      description: `Guardian 00003 (${g3.key.guardianId}): status possibly compromised. Guardianship is not authority.`,
      pathname: `/guardians/${g3.key.guardianId}/`,
      section: 'guardians' as const,
    };
    expectInPageFrame(html, frame, meta);
    expect(html).toContain(`<link rel="canonical" href="https://archive.example/guardians/${g3.key.guardianId}/">`);
  });

  it('shows its number, key, type and status, with a breadcrumb back to the registry', () => {
    const html = page(g1);
    expect(html).toContain(
      '<nav class="breadcrumb" aria-label="Breadcrumb"> <a href="/guardians/">Guardians</a> <span aria-hidden="true">/</span> <span aria-current="page">00001</span> </nav>',
    );
    expect(html).toContain(`<p class="eyebrow">Registered guardian 00001</p> <h1 class="record-title"><code>${g1.key.guardianId}</code></h1>`);
    expect(html).toContain('<dt>Registry number</dt><dd>00001</dd> <dt>Status</dt><dd>compromised</dd>');
    expect(html).toContain('<dt>Guardian type</dt><dd>ai agent <span class="muted">(as registered)</span></dd>  <dt>Key SHA-256</dt>');
    expect(html).toContain(`<dd><code class="hash">${g1.key.sha256}</code></dd>`);
  });

  it('shows the application mode, in words, only when the registration gave one', () => {
    expect(page(g2)).toContain(
      '<dt>Guardian type</dt><dd>human with ai agent <span class="muted">(as registered)</span></dd> <dt>Application mode</dt><dd>joint human ai</dd> <dt>Key SHA-256</dt>',
    );
    expect(page(g1)).not.toContain('Application mode');
  });

  it('has the banner, naming the record that set the status, only when the key is reported compromised or possibly compromised', () => {
    expect(page(g1)).toContain(
      '</header> <div class="banner banner-warn" role="note"> <p class="banner-title">Key reported compromised</p> <p>\n' +
        `Since ${link(compromise1.id)},\n          the guardian's own key reports itself compromised. What it signed after that is marked on each record's page.\n</p> </div><p class="notice">`,
    );
    expect(page(g3)).toContain('<p class="banner-title">Key reported possibly compromised</p>');
    expect(page(g3)).toContain(`Since ${link(possibly3.id)},`);
    for (const g of [g2, g4, g5]) {
      expect(page(g)).not.toContain('banner');
      expect(page(g)).toContain('</header> <p class="notice">Guardianship changes no authority');
    }
  });

  it('shows the declared intent as the guardian\'s own words, escaped: a hostile <script> or " is inert text', () => {
    const html = page(g1);
    expect(html).toContain(
      '<p class="words-text" dir="auto">I keep this key safe. &lt;/p&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &quot;quoted&quot; &lt;b&gt;bold&lt;/b&gt;</p>',
    );
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<b>');
    const doc = parseDocument(html);
    expect(DomUtils.getElementsByTagName('script', doc)).toEqual([]);
    const words = DomUtils.findOne((e) => e.attribs.class === 'words-text', doc.children)!;
    expect(DomUtils.textContent(words)).toBe(HOSTILE);
    expect(html).toContain("<h3 class=\"words-label\">Stewardship statement <span class=\"muted\">(the guardian's own words, not the archive's)</span></h3>");
  });

  it('lists its status history: registered by its registration, then each status set by a retirement', () => {
    expect(page(g1)).toContain(`<ol> <li>active: registered by ${link(reg1.id)}</li><li>compromised: set by ${link(compromise1.id)}</li> </ol>`);
    expect(page(g4)).toContain(`<ol> <li>active: registered by ${link(reg4.id)}</li> </ol>`);
  });

  it('lists the records its key signed, each warning as a badge, and how many were signed after the status changed', () => {
    const html = page(g1);
    const warning = `signed after the key was reported compromised (record ${compromise1.id})`;
    expect(html).toContain(
      `<ul> <li> ${link(before1.id)}  </li><li> ${link(after1.id)}  <span class="badge badge-warn">${warning}</span> </li>` +
        `<li> ${link(duplicate1.id)}  <span class="badge badge-warn">${warning}</span> </li> </ul> ` +
        "<p class=\"small\">2 of these were signed after the key's status changed.</p> </section>",
    );
  });

  it('says "was" for one warned record', () => {
    const registry = registryOf(ALL.filter((r) => r !== duplicate1));
    expect(page(g1, registry)).toContain("<p class=\"small\">1 of these was signed after the key's status changed.</p>");
    expect(page(g1, registry)).not.toContain('were signed after');
  });

  it('has no warned-records sentence when none was signed after a status change', () => {
    const html = page(g5);
    expect(html).toContain(`<ul> <li> ${link(echo5.id)}  </li> </ul>  </section>`);
    expect(html).not.toContain('signed after');
    expect(html).not.toContain('badge');
  });

  it('says "None besides its registration and retirements." when its key signed nothing else', () => {
    expect(page(g4)).toContain('<h2 id="signed">Records signed by this key</h2> <p class="muted">None besides its registration and retirements.</p>  </section> </main>');
    expect(page(g2)).toContain('None besides its registration and retirements.');
    expect(page(g1)).not.toContain('None besides');
  });
});

describe('under a base path', () => {
  const archive: SiteFrame = { paths: sitePaths('/archive/'), site: 'https://example.org/archive', stylesheet: '/archive/styles/site.css?v=1' };

  it("every link of both pages is under the base", () => {
    const index = guardiansDocument(full, archive);
    expect(index).toContain(`<a href="/archive/guardians/${g1.key.guardianId}/"><code>`);
    expect(index).toContain('<a href="/archive/api/guardian-registry.json">');
    expect(index).toContain(`<td>${link(compromise1.id, archive.paths)}</td>`);
    expect(index).toContain('<link rel="canonical" href="https://example.org/archive/guardians/">');
    const one = guardianDocument(guardianOf(full, g1), full, archive);
    expect(one).toContain('<a href="/archive/guardians/">Guardians</a>');
    expect(one).toContain(`Since ${link(compromise1.id, archive.paths)},`);
    expect(one).toContain(`<link rel="canonical" href="https://example.org/archive/guardians/${g1.key.guardianId}/">`);
    for (const html of [index, one]) expect(mainOf(html)).not.toMatch(/href="\/(?!archive\/)/);
  });
});
