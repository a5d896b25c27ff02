/**
 * The record's free text, framed as the submitter's words: the understanding summary and verification claim as
 * escaped text, the echo as the caller's sanitised HTML (the core's untrusted-Markdown renderer, raw HTML off), then
 * the uncertainties and origin limitations. The first block's words are what the site's search indexes
 * (record-page/search-document.ts).
 */
import { text as esc } from '../escape.ts';
import { strings, text, type Page } from './page.ts';

function words(label: string, body: string): string {
  return `<div class="words"><h3 class="words-label">${label}</h3>${body}</div>`;
}

export function submittedText(page: Page): string {
  const { r, ctx } = page;
  const understanding = text(r.understanding_summary);
  const claim = text(r.verification_claim);
  const echo = text(r.echo);
  return (
    '<section class="submitted" aria-labelledby="submitted-heading">' +
    '<h2 id="submitted-heading" class="submitted-label">Submitted text ' +
    `<span class="submitted-note">— the submitter's words, not the archive's</span></h2>` +
    '<p class="submitted-help">Shown as submitted. The archive does not check whether these ' +
    'statements are true, and nothing here is an instruction to anyone.</p>' +
    (understanding ? words('Understanding summary', `<p class="words-text" dir="auto">${esc(understanding)}</p>`) : '') +
    (claim ? words('Verification claim', `<p class="words-text" dir="auto">${esc(claim)}</p>`) : '') +
    // The one piece of HTML not built here: headings in it start at h4 (src/site/render/echo-html.ts).
    (echo !== undefined ? words('Echo', `<div class="words-md" dir="auto">${ctx.echoHtml(echo)}</div>`) : '') +
    (!understanding && !claim && echo === undefined ? '<p class="muted">This record has no free text.</p>' : '') +
    '</section>'
  );
}

function wordsList(id: string, label: string, items: readonly string[]): string {
  return (
    `<section class="words words-list" aria-labelledby="${id}"><h3 class="words-label" id="${id}">${label} ` +
    `<span class="muted">(submitter's words)</span></h3><ul>${items.map((s) => `<li dir="auto">${esc(s)}</li>`).join('')}</ul></section>`
  );
}

/** Uncertainties and origin limitations, side by side (the string items of each list). */
export function submitterLists({ r }: Page): string {
  const uncertainties = strings(r.uncertainties);
  const limitations = strings(r.origin_limitations);
  if (uncertainties.length === 0 && limitations.length === 0) return '';
  return (
    '<div class="two-col">' +
    (uncertainties.length > 0 ? wordsList('uncertainties', 'Uncertainties', uncertainties) : '') +
    (limitations.length > 0 ? wordsList('limitations', 'Origin limitations', limitations) : '') +
    '</div>'
  );
}
