/**
 * Record pages show what the build derived about keys and classifications (docs/guardians.md section 5): the
 * guardian verification result in plain words (a warning when signed after a compromise report), links both ways
 * with the guardian, and the classification history; the page's cache key changes with them.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { escape } from 'html-escaper';
import { describe, expect, it } from 'vitest';
import { pageCacheKey } from '../../src/site/build/cache/page-cache.ts';
import { recordJobs, type RecordSource } from '../../src/site/build/3-record-pages.ts';
import { readRecordPage } from '../../src/site/build/3-record-pages-worker.ts';
import { sitePaths } from '../../src/site/model/paths.ts';
import { renderRecordPage } from '../../src/site/render/record-page.ts';
import { at, classificationUpdate, newGuardian, registration, retirement, signedEcho } from '../helpers/guardian-records.ts';
import { echoWith } from '../helpers/records.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import type { TestRecord } from '../publish/helpers.ts';

function onDisk(list: TestRecord[]): RecordSource[] {
  const root = tempDir('echo-guardian-pages-');
  return list.map((r) => {
    const file = join(root, `${r.id}.json`);
    writeFileSync(file, r.bytes);
    return { ...r, file };
  });
}

const ctx = { paths: sitePaths('/'), site: 'https://archive.example', echoHtml: (e: string) => `<div>${escape(e)}</div>` };

function pages(list: TestRecord[]) {
  const jobs = recordJobs(onDisk(list));
  const main = (id: string) => renderRecordPage(readRecordPage(jobs.find((j) => j.page.entry.id === id)!), ctx).main;
  return { jobs, main };
}

const g1 = newGuardian();
const reg = at(1, 1, registration(g1));
const before = at(2, 1, signedEcho(g1));
const compromise = at(3, 1, retirement(g1, 'compromised', { id: reg.id, sha256: reg.sha256 }));
const after = at(4, 1, signedEcho(g1));
const guardianPage = `/guardians/${g1.key.guardianId}/`;

describe('guardian results on record pages', () => {
  it('an active guardian: "registered guardian 00001, active", linked to its page, with the boundary note', () => {
    const { main } = pages([reg, before]);
    const page = main(reg.id);
    expect(page).toContain('Registered guardian 00001, active.');
    expect(page).toContain(`href="${guardianPage}"`);
    expect(page).toContain('This record registers guardian');
    expect(page).toContain('This proves possession of the key only. Guardianship changes no authority, no verification level and no count.');
    expect(main(before.id)).toContain(`href="${guardianPage}"`);
    expect(main(before.id)).not.toContain('banner-warn');
  });

  it('a record signed after the key was reported compromised says so plainly, as a warning', () => {
    const { main } = pages([reg, before, compromise, after]);
    const page = main(after.id);
    expect(page).toContain('Signed by a key reported compromised');
    expect(page).toContain(`Signed after the key was reported compromised (record ${compromise.id}).`);
    expect(page).toMatch(/<div class="banner banner-warn" role="note"><p class="banner-title">Signed by a key reported compromised/);
    expect(main(compromise.id)).toContain('This record sets the status of guardian');
    expect(main(before.id)).not.toContain('Signed by a key reported compromised');
  });

  it('an ordinary record has no guardian section', () => {
    const plain = at(5, 1, echoWith({}));
    const { main, jobs } = pages([plain]);
    expect(main(plain.id)).not.toContain('id="guardian"');
    expect(jobs[0]!.page).not.toHaveProperty('guardian');
  });

  it('the guardian result is an input of the page: its cache key changes when the key is reported compromised', () => {
    const key = (list: TestRecord[]) => {
      const job = recordJobs(onDisk(list)).find((j) => j.page.entry.id === after.id)!;
      return pageCacheKey('code', { base: '/', site: undefined, stylesheet: '/s.css' }, job.page);
    };
    expect(key([reg, before, after])).not.toBe(key([reg, before, compromise, after]));
  });
});

describe('classification history on record pages', () => {
  const reviewer = newGuardian();
  const target = at(1, 1, echoWith({ '/archive_status': 'accepted_independent_attestation', '/independence_class': 'unsolicited_independent' }));
  const applied = at(2, 1, classificationUpdate(reviewer, {
    target: { id: target.id, sha256: target.sha256 },
    previous: { independence_class: 'unsolicited_independent' },
    proposed: { do_not_count_as_attestation: true },
    reason: 'A person <b>sent</b> the link.',
  }));
  const stale = at(3, 1, classificationUpdate(reviewer, { target: { id: target.id, sha256: target.sha256 }, previous: { independence_class: 'self_reported' }, proposed: { independence_class: 'unsolicited_independent' } }));

  it("the target's page shows the history, the proposer's words as text, and counts the record by its effective classification", () => {
    const { main } = pages([target, applied, stale]);
    const page = main(target.id);
    expect(page).toContain('id="classification-updates"');
    expect(page).toContain('A person &lt;b&gt;sent&lt;/b&gt; the link.');
    expect(page).toContain("Reason <span class=\"muted\">(the proposer's words)</span>");
    expect(page).toContain('reviewer-model');
    expect(page).toContain('accepted 2026-11-02');
    expect(page).toContain("its previous classification of independence_class is not the record&#39;s classification at the time");
    expect(page).toMatch(/Counted as independent attestation<\/dt><dd><span class="flag flag-no">No<\/span><span class="fact-note">the archive accepted it as an independent attestation, but it is marked do not count as attestation by a classification update/);
    expect(page).toContain("The record's file, its SHA-256 and its transparency-log leaf are unchanged.");
    // its hash is its file's
    expect(page).toContain(target.sha256);
  });

  it("the update's own page links to its target", () => {
    const { main } = pages([target, applied]);
    expect(main(applied.id)).toContain(`Reclassifies <a href="/records/${target.id}/">`);
  });
});
