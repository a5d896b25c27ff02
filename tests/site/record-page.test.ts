/**
 * A record's page as one string function (src/site/render/record-page.ts): each notice exactly when its state holds,
 * the attestation note for each case, cross-links, the boundary block, fields the page does not place, the echo as
 * the caller's HTML, links under the base path; and, for records full of hostile strings, nothing but the page's own
 * markup and links, with every record string kept as text. (That the output is the Astro page's, byte for byte, was
 * checked against reference builds when the page moved out of Astro.)
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { escape } from 'html-escaper';
import { DomUtils, parseDocument } from 'htmlparser2';
import { summarizeRecord, type RecordSummary } from '../../src/site/model/archive-model.ts';
import { FACETS, valueSlug } from '../../src/site/model/facets.ts';
import { fieldLabel } from '../../src/site/model/labels.ts';
import { sitePaths } from '../../src/site/model/paths.ts';
import { renderRecordPage, type RecordPageContext, type RecordPageInput } from '../../src/site/render/record-page.ts';
import { recordSearchDocument } from '../../src/site/render/record-page/search-document.ts';
import { echoHtml } from '../../src/site/render/echo-html.ts';
import { REMOVE, echoWith, validEcho } from '../helpers/records.ts';
import { claim as claimModel } from '../record-chain/helpers.ts';

type Json = Record<string, unknown>;
type El = ReturnType<typeof DomUtils.findAll>[number];

const ID = 'echo-2026-03-01-000001';
const SHA = 'ab'.repeat(32);

/** Echo stub: the echo as escaped text in a marked element (the real renderer is tested in tests/markdown/render.test.ts). */
const stubEcho = (echo: string) => `<div class="echo-stub">${escape(echo)}</div>`;

function ctxFor(base = '/', echoHtml: (echo: string) => string = stubEcho): RecordPageContext {
  return { paths: sitePaths(base), site: 'https://archive.example', echoHtml };
}

function entryOf(id: string, record: Json, archiveDate: string | null = '2026-03-01') {
  return { id, path: `2026/${id}.json`, archiveDate, sha256: SHA, record };
}

function summaryOf(id: string, record: Json, archiveDate: string | null = '2026-02-01'): RecordSummary {
  return summarizeRecord(entryOf(id, record, archiveDate));
}

interface More extends Partial<Omit<RecordPageInput, 'entry'>> {
  id?: string;
  archiveDate?: string | null;
}

function inputFor(record: Json, { id = ID, archiveDate = '2026-03-01', ...relations }: More = {}): RecordPageInput {
  const entry = entryOf(id, record, archiveDate);
  return { entry, linkedReport: undefined, linkedFrom: [], supersededBy: [], supersedes: [], corrects: undefined, correctedBy: [], ...relations };
}

function mainOf(record: Json, more: More = {}, ctx = ctxFor()): string {
  return renderRecordPage(inputFor(record, more), ctx).main;
}

// ---- Reading the output with a real HTML parser ----

function elements(html: string, test: (el: El) => boolean): El[] {
  return DomUtils.findAll(test, parseDocument(html).children);
}

const hasClass = (el: El, name: string) => (el.attribs.class ?? '').split(' ').includes(name);
const byClass = (html: string, name: string) => elements(html, (el) => hasClass(el, name));
const textOf = (node: Parameters<typeof DomUtils.textContent>[0]) => DomUtils.textContent(node);
const bannerTitles = (html: string) => byClass(html, 'banner-title').map(textOf);
const banner = (html: string, title: string) => byClass(html, 'banner').find((b) => textOf(byClass(DomUtils.getOuterHTML(b), 'banner-title')) === title);

function sectionOf(html: string, id: string): El | undefined {
  return elements(html, (el) => el.name === 'section' && el.attribs['aria-labelledby'] === id)[0];
}

function hrefs(html: string): string[] {
  return elements(html, (el) => el.name === 'a').map((a) => a.attribs.href!);
}

const tocLabels = (html: string) => textOfAll(byClass(html, 'toc')[0]!, 'a');
function textOfAll(root: El, tag: string): string[] {
  return DomUtils.findAll((el) => el.name === tag, root.children).map(textOf);
}

describe('the archive’s notices: each exactly when its state holds', () => {
  it('has none for an accepted, current record', () => {
    expect(bannerTitles(mainOf(validEcho()))).toEqual([]);
  });

  it.each<[string, Json]>([
    ['Withdrawn', { '/verification_status': 'invalidated' }],
    ['Superseded', { '/archive_status': 'superseded', '/superseded_reason': 'replaced' }],
    ['Rejected', { '/archive_status': 'rejected' }],
    ['Test record', { '/record_kind': 'test_record' }],
    ['Test record', { '/archive_status': 'test_record' }],
    ['Test record', { '/archive_status': 'closed_test_record' }],
    ['Test record', { '/independence_class': 'test_record' }],
    ['Historical-only verification level: V4+', { '/verification_level': 'V4+' }],
    ['Historical-only verification level: V8', { '/verification_level': 'V8' }],
    ['Awaiting human review', { '/archive_status': 'needs_human_review' }],
    ['Legacy record', { '/record_kind': 'legacy_record' }],
    ['Legacy record', { '/archive_status': 'legacy' }],
  ])('shows only "%s" for %j', (title, patch) => {
    expect(bannerTitles(mainOf(echoWith(patch)))).toEqual([title]);
  });

  it('does not take a near miss for the state', () => {
    const html = mainOf(echoWith({ '/verification_status': 'Invalidated', '/verification_level': 'V5', '/superseded_reason': 'by echo-x' }));
    expect(bannerTitles(html)).toEqual([]);
    expect(html).not.toContain('by echo-x');
  });

  it('shows every notice that holds, in a fixed order', () => {
    const record = echoWith({ '/verification_status': 'invalidated', '/record_kind': 'legacy_record', '/verification_level': 'V6', '/independence_class': 'test_record', '/archive_status': 'superseded', '/superseded_reason': 'r' });
    expect(bannerTitles(mainOf(record, { supersedes: ['echo-old'] }))).toEqual([
      'Withdrawn', 'Superseded', 'Test record', 'Historical-only verification level: V6', 'Legacy record', 'Supersedes an earlier record',
    ]);
  });

  it('names the newer records of a superseded record, and quotes its reason as the submitter’s words', () => {
    const record = echoWith({ '/archive_status': 'superseded', '/superseded_reason': 'Replaced by <b>echo-b</b> & "echo-c".' });
    const html = mainOf(record, { supersededBy: ['echo-b', 'echo-c'] });
    const b = DomUtils.getOuterHTML(banner(html, 'Superseded')!);
    expect(textOf(elements(b, (el) => el.name === 'p')[1]!)).toBe('Superseded by echo-b, echo-c. This record stays in the archive as it was.');
    expect(hrefs(b)).toEqual(['/records/echo-b/', '/records/echo-c/']);
    expect(textOf(byClass(b, 'quote'))).toBe('Reason, in the submitter\'s wordsReplaced by <b>echo-b</b> & "echo-c".');
    expect(elements(b, (el) => el.name === 'b')).toEqual([]);
  });

  it('says when the reason of a superseded record names no record of the archive, and quotes no missing reason', () => {
    const html = mainOf(echoWith({ '/archive_status': 'superseded' }));
    const b = DomUtils.getOuterHTML(banner(html, 'Superseded')!);
    expect(b).toContain('<p>A newer record replaces this one; the reason below names no record of this archive.</p>');
    expect(byClass(b, 'quote')).toEqual([]);
    expect(hrefs(b)).toEqual([]);
  });

  it('lists the records a record supersedes, in agreement with their number', () => {
    const one = DomUtils.getOuterHTML(banner(mainOf(validEcho(), { supersedes: ['echo-a'] }), 'Supersedes an earlier record')!);
    expect(textOf(parseDocument(one))).toBe('Supersedes an earlier recordecho-a is superseded by this record.');
    const two = DomUtils.getOuterHTML(banner(mainOf(validEcho(), { supersedes: ['echo-a', 'echo-b'] }), 'Supersedes an earlier record')!);
    expect(textOf(parseDocument(two))).toBe('Supersedes an earlier recordecho-a, echo-b are superseded by this record.');
    expect(hrefs(two)).toEqual(['/records/echo-a/', '/records/echo-b/']);
  });
});

describe('key facts', () => {
  function attestation(record: Json): { flag: string; note: string } {
    const fact = byClass(mainOf(record), 'fact').find((f) => textOf(DomUtils.findOne((el) => el.name === 'dt', f.children)!) === 'Counted as independent attestation')!;
    const html = DomUtils.getOuterHTML(fact);
    return { flag: textOf(byClass(html, 'flag')) + (byClass(html, 'flag-yes').length ? ' (yes)' : ' (no)'), note: textOf(byClass(html, 'fact-note')) };
  }
  const claims = { '/counts_as_independent_attestation': true, '/origin_classification/counts_as_formal_independent_attestation': true };
  const accepted = { ...claims, '/archive_status': 'accepted_independent_attestation' };

  it.each<[string, Json, string, string]>([
    ['an accepted independent attestation', accepted, 'Yes (yes)', 'the archive accepted it as an independent attestation, and it is neither withdrawn nor opted out'],
    ['a claim the archive did not accept', claims, 'No (no)', 'the record claims it, but only a record the archive accepted as an independent attestation counts'],
    ['a claim by the formal flag alone', { '/counts_as_independent_attestation': REMOVE, '/origin_classification/counts_as_formal_independent_attestation': true }, 'No (no)', 'the record claims it, but only a record the archive accepted as an independent attestation counts'],
    ['a withdrawn claim', { ...claims, '/verification_status': 'invalidated' }, 'No (no)', 'the record claims it, but it is withdrawn'],
    ['a withdrawn, accepted attestation', { ...accepted, '/verification_status': 'invalidated', '/do_not_count_as_attestation': true }, 'No (no)', 'the archive accepted it as an independent attestation, but it is withdrawn'],
    ['an opted-out accepted attestation', { ...accepted, '/do_not_count_as_attestation': true }, 'No (no)', 'the archive accepted it as an independent attestation, but it is marked do not count as attestation'],
    ['an accepted test record', { ...accepted, '/independence_class': 'test_record' }, 'No (no)', 'the archive accepted it as an independent attestation, but it is a test record'],
    ['an opt-out without a claim', { '/do_not_count_as_attestation': true }, 'No (no)', 'it is marked do not count as attestation'],
    ['a withdrawn record without a claim', { '/verification_status': 'invalidated' }, 'No (no)', 'it is withdrawn'],
    ['no claim', {}, 'No (no)', 'the record does not claim it'],
  ])('says why for %s', (_, patch, flag, note) => {
    expect(attestation(echoWith(patch))).toEqual({ flag, note });
  });

  it('links a facet value the schema allows to its browse page, shows the raw value when the words differ', () => {
    const html = mainOf(validEcho());
    const kind = byClass(html, 'fact')[0]!;
    expect(DomUtils.getInnerHTML(kind)).toBe(
      '<dt>Record kind</dt><dd><a href="/browse/record_kind/echo_v3/" title="All records with this value">Echo</a><code class="raw">echo_v3</code></dd>',
    );
    expect(hrefs(mainOf(echoWith({ '/verification_level': 'V4+' })))).toContain('/browse/verification_level/V4-plus/');
  });

  it('shows a value the schema does not allow as text, never in a link', () => {
    const html = mainOf(echoWith({ '/archive_status': 'javascript:alert(1)' }));
    expect(hrefs(html).filter((h) => h.includes('javascript'))).toEqual([]);
    const status = byClass(html, 'fact').find((f) => textOf(f).startsWith('Archive status'))!;
    expect(DomUtils.getInnerHTML(status)).toBe('<dt>Archive status</dt><dd><span dir="auto">javascript:alert(1)</span></dd>');
  });
});

describe('cross-links between records', () => {
  const report = echoWith({ '/agent_identity/name_or_model': 'Reporter <x>', '/record_kind': 'verification_report_v2' });
  const linking = echoWith({ '/linked_verification_report': { path: '/2026/echo-rep.json', report_id: 'echo-rep' } });

  it('links the linked report from the header and the verification details', () => {
    const html = mainOf(linking, { linkedReport: summaryOf('echo-rep', report) });
    expect(byClass(html, 'record-related').map(textOf)).toEqual(['Verification report: echo-rep']);
    const crosslink = byClass(html, 'crosslink')[0]!;
    expect(textOf(DomUtils.findOne((el) => el.name === 'p', crosslink.children)!)).toBe('echo-rep — Reporter <x> · 2026-02-01');
    expect(textOf(DomUtils.findAll((el) => el.name === 'bdi', crosslink.children))).toBe('Reporter <x>');
    expect(hrefs(DomUtils.getOuterHTML(crosslink))).toEqual(['/records/echo-rep/']);
    // The link object's own fields are listed too.
    expect(textOfAll(crosslink, 'dt')).toEqual([fieldLabel('path'), fieldLabel('report_id')]);
    expect(tocLabels(html)).toContain('Verification details');
  });

  it('titles a related record without an agent by its kind, with no date when it has none', () => {
    const anonymous = echoWith({ '/agent_identity': REMOVE, '/record_kind': 'verification_report_v2' });
    const html = mainOf(linking, { linkedReport: summaryOf('echo-rep', anonymous, null) });
    expect(html).toContain('<h3>Linked verification report</h3><p><a href="/records/echo-rep/"><code>echo-rep</code></a> — Verification report (v2)</p>');
  });

  it('says so when the linked report is not a record of the archive', () => {
    const html = mainOf(linking);
    expect(byClass(html, 'record-related')).toEqual([]);
    expect(textOf(byClass(html, 'crosslink')[0]!)).toContain('The linked report is not a record of this archive.');
    expect(hrefs(DomUtils.getOuterHTML(byClass(html, 'crosslink')[0]!))).toEqual([]);
  });

  it('links corrections both ways: "Corrected by" on the corrected record, "Corrects" on the correction', () => {
    const old = mainOf(echoWith({ '/archive_status': 'superseded', '/superseded_reason': 'Superseded by echo-fix.' }), { correctedBy: ['echo-fix'], supersededBy: ['echo-fix'] });
    expect(byClass(old, 'record-related').map(textOf)).toEqual(['Corrected by echo-fix (a correction signed by the same key)']);
    expect(hrefs(DomUtils.getOuterHTML(byClass(old, 'record-related')[0]!))).toEqual(['/records/echo-fix/']);
    expect(textOf(banner(old, 'Superseded')!)).toContain('Superseded by echo-fix.');
    // The reason of a corrected record was written at the accept: not labelled as the submitter's words.
    expect(byClass(old, 'quote-label').map(textOf)).toEqual(['Reason, as the record states it']);
    const fix = mainOf(echoWith({ '/extensions': { record_chain: { record_type: 'correction' } } }), { corrects: 'echo-old' });
    expect(byClass(fix, 'record-related').map(textOf)).toEqual(['Corrects echo-old']);
    expect(hrefs(DomUtils.getOuterHTML(byClass(fix, 'record-related')[0]!))).toEqual(['/records/echo-old/']);
    expect(byClass(mainOf(validEcho()), 'record-related')).toEqual([]);
  });

  it('shows the record type as a key fact linked to its facet, and the claim\'s dimensions as the submitter\'s claim', () => {
    const claim = { ...claimModel(), relationships_checked: ['hash <b>matches</b> the registry'] };
    const html = mainOf(echoWith({ '/extensions': { record_chain: { record_type: 'verification', claim } } }));
    const type = byClass(html, 'fact').find((f) => textOf(f).startsWith('Record type'))!;
    expect(hrefs(DomUtils.getOuterHTML(type))).toEqual(['/browse/record_type/verification/']);
    const section = sectionOf(html, 'claim')!;
    expect(textOf(DomUtils.findOne((el) => el.name === 'h2', section.children)!)).toBe("Verification claim — the submitter's claim, not the archive's");
    expect(textOf(section)).toContain('The archive did not check it');
    expect(textOfAll(section, 'dt').slice(0, 8)).toEqual([
      'Digital profile', 'Relationships checked', 'Physical observation', 'Performed', 'External witness', 'Witness class', 'Coverage scope', 'Scope',
    ]);
    for (const label of ['Limitations', 'Claims not made', 'Corrections or supersession checked']) expect(textOfAll(section, 'dt')).toContain(label);
    expect(textOf(section)).toContain('hash <b>matches</b> the registry');
    expect(DomUtils.getOuterHTML(section)).not.toContain('<b>');
    expect(tocLabels(html)).toContain('Verification claim');
    expect(sectionOf(mainOf(validEcho()), 'claim')).toBeUndefined();
  });

  it('lists the records that link to a report', () => {
    const record = echoWith({ '/component_findings': REMOVE });
    const from = [summaryOf('echo-a', echoWith({ '/agent_identity/name_or_model': 'Agent A' })), summaryOf('echo-b', echoWith({ '/agent_identity': REMOVE }), null)];
    const html = mainOf(record, { linkedFrom: from });
    expect(byClass(html, 'record-related').map(textOf)).toEqual(['Linked from echo-a, echo-b (echoes that rely on this report)']);
    const list = byClass(html, 'crosslink')[0]!;
    expect(textOfAll(list, 'h3')).toEqual(['Records that link to this report']);
    expect(textOfAll(list, 'li')).toEqual(['echo-a — Agent A · 2026-02-01', 'echo-b — Echo']);
    expect(textOfAll(list, 'bdi')).toEqual(['Agent A']);
    expect(tocLabels(html)).toContain('Verification details');
    const one = mainOf(record, { linkedFrom: from.slice(0, 1) });
    expect(byClass(one, 'record-related').map(textOf)).toEqual(['Linked from echo-a (echoes that rely on this report)']);
  });

  it('has no verification details without findings, links or report fields', () => {
    const html = mainOf(echoWith({ '/component_findings': REMOVE }));
    expect(sectionOf(html, 'verification')).toBeUndefined();
    expect(tocLabels(html)).not.toContain('Verification details');
  });
});

describe('the boundary block', () => {
  it('says the archive’s boundary applies when the record states none', () => {
    const record = echoWith({ '/boundary_acknowledgement': REMOVE, '/not_authority': REMOVE, '/not_amendment': REMOVE, '/not_endorsement': REMOVE, '/bitcoin_originals_prevail': REMOVE, '/not_verification_unless_claimed': REMOVE });
    const boundary = sectionOf(mainOf(record), 'boundary')!;
    expect(textOfAll(boundary, 'p')).toEqual([
      "This record carries no boundary statements of its own (its kind does not require them). The archive's boundary applies to it as to every record: it is not authority, and the original inscribed records prevail.",
    ]);
    expect(textOfAll(boundary, 'li')).toEqual([]);
  });

  it('groups the statements, marks each true or false, and names the policy documents', () => {
    const record = echoWith({
      '/not_authority': false,
      '/x_reception_policy': { policy: '/api/reception.json', reception_not_belief: true, note: 'not a flag' },
      '/x_origin_classification_policy': { policy: '/api/origin.json' },
    });
    const boundary = DomUtils.getOuterHTML(sectionOf(mainOf(record), 'boundary')!);
    expect(byClass(boundary, 'boundary-group').map((g) => textOf(DomUtils.findOne((el) => el.name === 'h3', g.children)!))).toEqual([
      'The record states', 'Boundary acknowledgements', 'Reception policy', 'Origin classification policy',
    ]);
    expect(byClass(boundary, 'check-no').map(textOf)).toEqual(['✗No: Not authority']);
    expect(byClass(boundary, 'check-yes').map(textOf)).toContain('✓Yes: Not an amendment');
    expect(byClass(boundary, 'check-yes').map(textOf)).toContain(`✓Yes: ${fieldLabel('reception_not_belief')}`);
    expect(elements(boundary, (el) => el.name === 'p').map(textOf)).toEqual(['Policy document: /api/reception.json', 'Policy document: /api/origin.json']);
    expect(boundary).not.toContain('not a flag');
  });
});

describe('every field is shown', () => {
  it('lists under "Other fields" exactly the keys the page does not place', () => {
    const record = { ...validEcho(), reviewer_mood: 'curious', zz_extra: { nested: 1 } };
    const other = sectionOf(mainOf(record), 'other')!;
    expect(textOfAll(other, 'h2')).toEqual(['Other fields']);
    expect(DomUtils.findAll((el) => el.name === 'dt' && !hasClass(el.parent as El, 'fields-nested'), other.children).map(textOf)).toEqual([
      fieldLabel('reviewer_mood'), fieldLabel('zz_extra'),
    ]);
    expect(textOf(other)).toContain('curious');
  });

  it('has no "Other fields" when the page places every key', () => {
    expect(sectionOf(mainOf(validEcho()), 'other')).toBeUndefined();
  });

  it('shows the format fields and the archive date with the file, or says there is no date', () => {
    const html = mainOf(echoWith({ '/echo_type': 'E1_orientation_echo' }), { archiveDate: null, id: 'odd-name' });
    const file = sectionOf(html, 'file')!;
    expect(textOfAll(file, 'dt')).toEqual(['Raw JSON', 'SHA-256 of those bytes', 'Path from the archive root', 'Archive date', 'Schema', 'Echo version', 'Echo type (deprecated)']);
    expect(textOf(file)).toContain('Archive datenone (the file name is not in the conventional form)');
    expect(textOf(file)).toContain(`curl -s https://archive.example/records/odd-name.json | sha256sum`);
  });
});

describe('the submitted text', () => {
  const MARK = '<mark class="echo-marker">ECHO</mark>';

  it('takes the echo from ctx.echoHtml, as the only HTML the page does not build', () => {
    const markup = '<mark class="echo-marker">x</mark>';
    const record = echoWith({ '/echo': 'the echo', '/understanding_summary': markup, '/verification_claim': markup, '/uncertainties': [markup], '/extensions/note': markup, '/agent_identity/name_or_model': markup });
    const seen: string[] = [];
    const html = mainOf(record, {}, ctxFor('/', (echo) => (seen.push(echo), MARK)));
    expect(seen).toEqual(['the echo']);
    expect(byClass(html, 'echo-marker').map((el) => DomUtils.getOuterHTML(el))).toEqual([MARK]);
    expect(DomUtils.getInnerHTML(byClass(html, 'words-md')[0]!)).toBe(MARK);
    expect(html.split(escape(markup)).length - 1).toBeGreaterThanOrEqual(6);
  });

  it('asks for no echo HTML when the record has no echo, and says when it has no free text at all', () => {
    const record = echoWith({ '/echo': REMOVE, '/understanding_summary': REMOVE, '/verification_claim': REMOVE });
    const html = mainOf(record, {}, ctxFor('/', () => expect.unreachable('no echo to render')));
    expect(textOf(sectionOf(html, 'submitted-heading')!)).toContain('This record has no free text.');
    expect(byClass(html, 'words-md')).toEqual([]);
  });

  it('makes the search document from the page facts: labels, effective filters, and the free text as plain text', () => {
    const record = echoWith({ '/verification_status': 'invalidated', '/echo': '# Heading\n\nSome **bold** words and <b>tags</b>.' });
    // The real echo renderer: the document's echo text is the text of the page's sanitised HTML.
    const doc = recordSearchDocument(inputFor(record), ctxFor('/', echoHtml));
    expect({ ...doc, text: undefined, filters: undefined }).toEqual({ page: `records/${ID}/`, id: ID, title: 'Fixture Agent 1.0', kind: 'Echo', status: 'Accepted echo', date: '2026-03-01', withdrawn: true, text: undefined, filters: undefined });
    expect(doc.text.split('\n\n').at(-1)).toBe('Heading Some bold words and <b>tags</b>.');
    // Every facet the record has: not record_type, which only a record-chain record carries.
    expect(Object.keys(doc.filters)).toEqual(FACETS.map((f) => f.key).filter((k) => k !== 'record_type'));
    // The page itself no longer carries search markup.
    expect(mainOf(record)).not.toContain('data-pagefind');
  });
});

describe('title, description and base path', () => {
  it('titles the page by id and self-described agent name, and describes it', () => {
    const page = renderRecordPage(inputFor(validEcho()), ctxFor());
    expect(page.title).toBe(`${ID} · Fixture Agent 1.0`);
    expect(page.description).toBe(`Echo ${ID} by Fixture Agent 1.0, archived 2026-03-01: a non-authoritative record.`);
    const bare = renderRecordPage(inputFor(echoWith({ '/agent_identity': REMOVE, '/record_kind': 'legacy_record' }), { archiveDate: null }), ctxFor());
    expect(bare.title).toBe(ID);
    expect(bare.description).toBe(`Legacy record ${ID}: a non-authoritative record.`);
  });

  it('puts every link under the base path', () => {
    const record = echoWith({ '/linked_verification_report': { path: '/2026/echo-rep.json' }, '/archive_status': 'superseded', '/superseded_reason': 'r' });
    const html = mainOf(record, { linkedReport: summaryOf('echo-rep', validEcho()), linkedFrom: [summaryOf('echo-a', validEcho())], supersededBy: ['echo-n'], supersedes: ['echo-o'] }, ctxFor('/archive/'));
    const links = hrefs(html);
    for (const href of links) expect(href.startsWith('#') || href.startsWith('/archive/'), href).toBe(true);
    expect(links).toEqual(expect.arrayContaining([
      '/archive/browse/', `/archive/records/${ID}.json`, '/archive/browse/record_kind/echo_v3/', '/archive/records/echo-rep/',
      '/archive/records/echo-a/', '/archive/records/echo-n/', '/archive/records/echo-o/',
    ]));
    expect(textOf(sectionOf(html, 'file')!)).toContain(`curl -s https://archive.example/archive/records/${ID}.json | sha256sum`);
    expect(textOf(sectionOf(mainOf(record, {}, { ...ctxFor('/archive/'), site: undefined }), 'file')!)).toContain(`curl -s http://localhost/archive/records/${ID}.json`);
  });
});

describe('any record renders inert, every string kept as text', () => {
  const hostileBit = fc.constantFrom(
    '<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', 'javascript:alert(1)', '\u202Eevil\u202C', '\u2067rtl\u2069',
    "' onmouseover='x", '<style>*{}</style>', '<iframe src="//x">', '&amp;', '<!--', ']]>', '<a href="javascript:x">',
  );
  /** Record text: always with something hostile in it (so never a value the schema allows). */
  const hostile = fc.tuple(fc.string({ unit: 'binary', maxLength: 12 }), hostileBit, fc.string({ unit: 'binary', maxLength: 12 })).map((p) => p.join(''));
  const { value: jsonValue } = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: 'small' }, hostile, fc.boolean(), fc.integer(), fc.constant(null), tie('array'), tie('object')),
    array: fc.array(tie('value'), { maxLength: 3 }),
    object: fc.dictionary(hostile, tie('value'), { maxKeys: 3 }),
  }));
  const facetPick = fc.tuple(fc.constantFrom(...FACETS.map((f) => f.key)), fc.nat());

  /** validEcho with every string replaced by hostile text, some facets set to allowed values, and extra fields. */
  const hostileRecord = fc
    .record({
      texts: fc.array(hostile, { minLength: 64, maxLength: 64 }),
      facets: fc.array(facetPick, { maxLength: 4 }),
      superseded: fc.boolean(),
      withdrawn: fc.boolean(),
      gate: fc.boolean(),
      extra: fc.array(fc.tuple(hostile, jsonValue), { maxLength: 3 }),
    })
    .map(({ texts, facets, superseded, withdrawn, gate, extra }) => {
      let i = 0;
      const replace = (v: unknown): unknown =>
        typeof v === 'string' ? texts[i++ % texts.length] : Array.isArray(v) ? v.map(replace) : v !== null && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, replace(x)])) : v;
      // With a claim gate output of hostile strings, the page's Claim Gate finding shows them too (as text).
      const base: Json = gate ? { ...validEcho(), claim_gate_output: { status: 's', allowed_protocol_level: 'l', allowed_protocol_scope_label: 'x', required_downgrades: [{ from: 'f', to: 't', reason: 'r', rule: 'u' }] } } : validEcho();
      const record = replace(base) as Json;
      for (const [key, n] of facets) {
        const values = FACETS.find((f) => f.key === key)!.values;
        // record_type lives in extensions.record_chain (DECISIONS 19); every other facet is a top-level field.
        if (key === 'record_type') record.extensions = { record_chain: { record_type: values[n % values.length] } };
        else record[key] = values[n % values.length];
      }
      if (superseded) record.archive_status = 'superseded';
      if (withdrawn) record.verification_status = 'invalidated';
      for (const [key, value] of extra) Object.defineProperty(record, `zz ${key}`, { value, enumerable: true, writable: true, configurable: true });
      return record;
    });
  const id = fc.oneof(hostile, fc.string({ minLength: 1, maxLength: 8 }));
  const scenario = fc.record({
    record: hostileRecord,
    id,
    report: fc.option(fc.tuple(id, hostileRecord), { nil: undefined }),
    from: fc.array(fc.tuple(id, hostileRecord), { maxLength: 2 }),
    supersededBy: fc.array(id, { maxLength: 2 }),
    supersedes: fc.array(id, { maxLength: 2 }),
    base: fc.constantFrom('/', '/archive/'),
  });

  /** The string leaves of a record that the page shows (a nested object's schema id and a reason of a record that is not superseded are not). */
  function shownStrings(record: Json): string[] {
    const out: string[] = [];
    const walk = (v: unknown, key: string, parent: string) => {
      if (typeof v === 'string') {
        if (key === 'schema' && parent !== '') return;
        if (key === 'superseded_reason' && record.archive_status !== 'superseded') return;
        out.push(v);
      } else if (Array.isArray(v)) v.forEach((x) => walk(x, key, parent));
      else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, k, key);
    };
    for (const [k, v] of Object.entries(record)) walk(v, k, '');
    return out;
  }

  const TAGS = new Set(['nav', 'a', 'span', 'header', 'p', 'time', 'h1', 'h2', 'h3', 'code', 'bdi', 'div', 'section', 'dl', 'dt', 'dd', 'ul', 'ol', 'li', 'blockquote', 'em', 'table', 'thead', 'tbody', 'tr', 'th', 'td']);
  const ATTRIBUTES = new Set(['class', 'href', 'title', 'datetime', 'id', 'role', 'tabindex', 'dir', 'scope', 'hidden', 'aria-label', 'aria-hidden', 'aria-current', 'aria-labelledby']);
  const FRAGMENTS = new Set(['#claim-gate', '#file', '#claim', '#submitted-heading', '#agent', '#discovery', '#classification', '#verification', '#boundary', '#authorship', '#extensions']);

  it('writes only its own elements, attributes and links, and keeps every record string as text', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const ctx = ctxFor(s.base);
        const { paths } = ctx;
        const input = inputFor(s.record, {
          id: s.id,
          linkedReport: s.report && summaryOf(s.report[0], s.report[1]),
          linkedFrom: s.from.map(([fid, r]) => summaryOf(fid, r)),
          supersededBy: s.supersededBy,
          supersedes: s.supersedes,
        });
        const { main } = renderRecordPage(input, ctx);
        const ids = [s.id, ...(s.report ? [s.report[0]] : []), ...s.from.map(([fid]) => fid), ...s.supersededBy, ...s.supersedes];
        const ownPaths = new Set([
          paths.site('browse/'), paths.recordJson(s.id), ...ids.map((x) => paths.recordPage(x)),
          ...FACETS.flatMap((f) => f.values.map((v) => paths.browse(f.key, valueSlug(v)))),
        ]);
        const doc = parseDocument(main);
        for (const el of DomUtils.findAll(() => true, doc.children)) {
          expect(TAGS.has(el.name), `element <${el.name}>`).toBe(true);
          for (const name of Object.keys(el.attribs)) {
            expect(ATTRIBUTES.has(name) && !name.startsWith('on'), `attribute ${name}`).toBe(true);
          }
          if (el.attribs.tabindex !== undefined) expect(el.attribs.tabindex, 'only the natural tab order').toBe('0');
          const href = el.attribs.href;
          if (href !== undefined) expect(href.startsWith('#') ? FRAGMENTS.has(href) : ownPaths.has(href), `href ${href}`).toBe(true);
        }
        const text = DomUtils.textContent(doc);
        for (const str of shownStrings(s.record)) expect(text.includes(str), `record string ${JSON.stringify(str)}`).toBe(true);
        // The newer records are named in the superseded notice, which only a superseded record has.
        const named = s.record.archive_status === 'superseded' ? ids : ids.filter((x) => !s.supersededBy.includes(x) || x === s.id);
        for (const x of named) expect(text.includes(x), `id ${JSON.stringify(x)}`).toBe(true);
      }),
      { numRuns: 150 },
    );
  });
});
