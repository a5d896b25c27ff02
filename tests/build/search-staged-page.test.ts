/**
 * What build-search stages for Pagefind instead of a record page (scripts/lib/search-staged-page.ts): the <html> tag
 * and the data-pagefind-body element, whole; a page where Pagefind would read anything else (or of another shape) is
 * left to be staged whole (undefined).
 */
import { describe, expect, it } from 'vitest';
import { searchStagedPage } from '../../scripts/lib/search-staged-page.ts';

const TITLE = '<span hidden data-pagefind-meta="title">Record 7</span>';
const frame = (body: string, html = '<html lang="de" dir="ltr">') =>
  `<!doctype html>${html}<head><title>T</title><script>var s = "<section data-x>";</script></head><body><main><h1>Echo 7</h1>${body}<footer>f</footer></main></body></html>`;

describe('searchStagedPage', () => {
  it('keeps the <html> tag and the body element with everything nested in it, drops the rest', () => {
    const body = `<section class="submitted" data-pagefind-body>${TITLE}<section><p>inner</p></section><p>a &lt;section&gt; in text</p></section>`;
    expect(searchStagedPage(frame(`<section>facts</section>${body}<section>more</section>`))).toBe(
      `<!doctype html><html lang="de" dir="ltr"><head><meta charset="utf-8"></head><body>${body}</body></html>`,
    );
  });

  it('a body element of another name, and names that only start alike', () => {
    const body = `<div data-pagefind-body><span data-pagefind-meta='id, title:Seven'></span><divider></divider><div><div>x</div></div></div>`;
    expect(searchStagedPage(frame(`${body}<div>after</div>`, '<html>'))).toBe(`<!doctype html><html><head><meta charset="utf-8"></head><body>${body}</body></html>`);
  });

  it('undefined (stage the whole page) without a body element, with two, unclosed, or without <html>', () => {
    expect(searchStagedPage(frame(`<section>${TITLE}<p>no body</p></section>`))).toBeUndefined();
    expect(searchStagedPage(frame(`<section data-pagefind-body>${TITLE}a</section><div data-pagefind-body>b</div>`))).toBeUndefined();
    expect(searchStagedPage(frame(`<section data-pagefind-body>${TITLE}<section>a</section>`))).toBeUndefined();
    expect(searchStagedPage(`<body><section data-pagefind-body>${TITLE}a</section></body>`)).toBeUndefined();
    // the attribute's name in text or an attribute value, not on a tag of its own
    expect(searchStagedPage(frame(`<p title="data-pagefind-body">${TITLE}x</p>`))).toBeUndefined();
    expect(searchStagedPage(frame(`<p>data-pagefind-body ${TITLE}</p>`))).toBeUndefined();
  });

  it('the name in text or a value inside the body element does not count', () => {
    const body = `<section data-pagefind-body>${TITLE}<p title="data-pagefind-body">write data-pagefind-body on it</p></section>`;
    expect(searchStagedPage(frame(body))).toContain(`<body>${body}</body>`);
  });

  it('undefined where Pagefind reads more than the body: no title in it, one excluded, an image or attributes outside', () => {
    const body = (inner = TITLE) => `<section data-pagefind-body>${inner}<p>text</p></section>`;
    expect(searchStagedPage(frame(body()))).toBeDefined();
    expect(searchStagedPage(frame(body('')))).toBeUndefined(); // the title would come from the page's <h1>
    expect(searchStagedPage(frame(body('<span data-pagefind-meta="subtitle">x</span>')))).toBeUndefined();
    expect(searchStagedPage(frame(body(`<div data-pagefind-ignore="all">${TITLE}</div>`)))).toBeUndefined();
    expect(searchStagedPage(frame(`<img src="/logo.png" alt="">${body()}`))).toBeUndefined(); // the default image
    expect(searchStagedPage(frame(`<span data-pagefind-filter="kind">a</span>${body()}`))).toBeUndefined();
  });
});
