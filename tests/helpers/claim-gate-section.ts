/** The text of a record page's "Claim Gate finding" section, rendered by the site's own record-page renderer. */
import { DomUtils, parseDocument } from 'htmlparser2';
import { sitePaths } from '../../src/site/paths.ts';
import { renderRecordPage } from '../../src/site/render/record-page.ts';

export function recordPageMain(record: Record<string, unknown>, id = 'echo-2026-03-01-000001'): string {
  return renderRecordPage(
    {
      entry: { id, path: `2026/${id}.json`, archiveDate: null, sha256: 'ab'.repeat(32), record },
      linkedReport: undefined,
      linkedFrom: [],
      supersededBy: [],
      supersedes: [],
      corrects: undefined,
      correctedBy: [],
    },
    { paths: sitePaths('/'), site: undefined, echoHtml: (e) => `<p>${e}</p>` },
  ).main;
}

/** The section's text, or undefined when the page has none. */
export function claimGateSectionText(html: string): string | undefined {
  const el = DomUtils.findAll((e) => e.name === 'section' && e.attribs['aria-labelledby'] === 'claim-gate', parseDocument(html).children)[0];
  return el && DomUtils.textContent(el);
}
