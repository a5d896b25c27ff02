/**
 * The Markdown report for pull requests, on real validation results: the table, each problem with place, rule and
 * fix, the reviewer's facts for valid records; and record text kept inert when GitHub renders it.
 */
import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { validateArchive } from '../../src/core/archive/validate-archive.ts';
import { formatMarkdown, markdownCode, markdownText } from '../../src/core/report/format-markdown.ts';
import { tempArchives } from '../helpers/archive.ts';
import { echoWith, validEcho } from '../helpers/records.ts';

const makeArchive = tempArchives();
// GitHub renders tables and some raw HTML: render with both on, to see what a hostile record could do.
const md = new MarkdownIt({ html: true, linkify: true });

const HOSTILE = '<img src=x onerror=alert(1)> @octocat [click](https://evil.example) | `cell` **bold** https://evil.example';

async function reportOf(files: Record<string, unknown>, removed: Array<{ path: string; renamedTo?: string }> = []) {
  const root = makeArchive(files as Record<string, Record<string, unknown>>);
  return validateArchive(root, { removed });
}

describe('formatMarkdown', () => {
  it('tables the records with kind, verdict and problem counts, then every problem with file:line, rule and fix', async () => {
    const report = await reportOf(
      {
        '2026/echo-2026-01-01-000001.json': validEcho(),
        '2026/echo-2026-01-02-000002.json': echoWith({ '/context_depth': 'C0_homepage_only' }),
      },
      [{ path: '2026/echo-2026-01-03-000003.json' }, { path: '2026/echo-2026-01-04-000004.json', renamedTo: 'old/echo-2026-01-04-000004.json' }],
    );
    const out = formatMarkdown(report, { cwd: report.root, subtitle: 'Changed since main: 3.' });
    expect(out).toMatch(/\| ⚠️ `2026\/echo-2026-01-04-000004\.json:1:1` \| `change\/moved-record` \|/);
    expect(out).toContain('## Echo archive validation');
    expect(out).toContain('Changed since main\\: 3\\.');
    expect(out).toContain('**❌ 2 of 4 records invalid** (2 errors, 1 warning)');
    expect(out).toContain('| `2026/echo-2026-01-04-000004.json` | — | ⚠️ moved | 1 warning |');
    expect(out).toContain('| `2026/echo-2026-01-01-000001.json` | `echo_v3` | ✅ valid | — |');
    expect(out).toContain('| `2026/echo-2026-01-02-000002.json` | `echo_v3` | ❌ invalid | 1 error |');
    expect(out).toContain('| `2026/echo-2026-01-03-000003.json` | — | ❌ removed | 1 error |');
    expect(out).toMatch(/\| ❌ `2026\/echo-2026-01-02-000002\.json:12:\d+` \| `cross\/c0-assessment` \| a record with context\\_depth C0\\_homepage\\_only .* \| Having read only the homepage .* \|/);
    expect(out).toMatch(/\| ❌ `2026\/echo-2026-01-03-000003\.json:1:1` \| `change\/removed-record` \|/);
  });

  it("lists the facts a reviewer checks for each valid record, and only for valid ones", async () => {
    const attesting = echoWith({
      '/archive_status': 'accepted_independent_attestation',
      '/counts_as_independent_attestation': true,
      '/origin_classification/counts_as_formal_independent_attestation': true,
    });
    const report = await reportOf({
      'a/echo-2026-01-01-000001.json': validEcho(),
      'a/echo-2026-01-02-000002.json': attesting,
      'a/echo-2026-01-03-000003.json': echoWith({ '/verification_status': 'invalidated', '/verification_level': 'V6' }),
      'a/echo-2026-01-04-000004.json': echoWith({ '/context_depth': 'C0_homepage_only' }),
    });
    const out = formatMarkdown(report);
    const facts = out.slice(out.indexOf('### What reviewers check'));
    expect(facts).toContain('| Record | Kind | Status | Context depth | Verification level | Counts as an independent attestation |');
    expect(facts).toContain('| `echo-2026-01-01-000001` | `echo_v3` | `accepted_echo` | `C3_verification_aware` | `V3` | no |');
    expect(facts).toContain('| `echo-2026-01-02-000002` | `echo_v3` | `accepted_independent_attestation` | `C3_verification_aware` | `V3` | **yes** |');
    expect(facts).toContain('| `echo-2026-01-03-000003` | `echo_v3` | `accepted_echo` (withdrawn) | `C3_verification_aware` | `V6` (historical only) | no |');
    expect(facts).not.toContain('echo-2026-01-04-000004');
  });

  it('says so when nothing changed', async () => {
    const report = await validateArchive(makeArchive({ 'echo-2026-01-01-000001.json': validEcho() }), { only: new Set() });
    expect(formatMarkdown(report)).toContain('No record to check');
  });

  it('keeps record text inert: no HTML, link, mention or table break from a hostile record', async () => {
    const report = await reportOf({ 'echo-2026-01-01-000001.json': echoWith({ '/archive_status': HOSTILE, '/context_depth': HOSTILE }) });
    const out = formatMarkdown(report);
    const html = md.render(out);
    expect(html).not.toMatch(/<img|<a |<strong>bold/);
    expect(out).not.toMatch(/(?<!`)@octocat/);
    // every table row keeps its number of cells
    for (const table of html.split('<table>').slice(1)) {
      const rows = table.slice(0, table.indexOf('</table>')).match(/<tr>[\s\S]*?<\/tr>/g)!;
      const cells = rows.map((r) => (r.match(/<t[hd][ >]/g) ?? []).length);
      expect(new Set(cells).size).toBe(1);
    }
  });
});

describe('markdownText and markdownCode', () => {
  it('escapes Markdown and HTML, breaks mentions and autolinks, and keeps one line', () => {
    const html = md.render(markdownText(HOSTILE + '\n# heading'));
    expect(html).not.toMatch(/<img|<a |<strong>|<h1>|<code>/);
    expect(markdownText('@someone')).toBe('@\u200bsomeone');
    expect(markdownText('a\nb')).toBe('a b');
  });

  it('makes code spans that backticks and pipes cannot break', () => {
    expect(markdownCode('a`b')).toBe('``a`b``');
    expect(markdownCode('`x`')).toBe('`` `x` ``');
    expect(md.render(`| h |\n|---|\n| ${markdownCode('a|b`c')} |`)).toContain('<code>a|b`c</code>');
  });
});
