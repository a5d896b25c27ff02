/**
 * Checks the end-to-end tests run inside the browser page (each function is serialised by playwright, so it must
 * be self-contained), plus the plain-Node helpers they need. Used over the hostile fixtures (fixtures/hostile/).
 */

/**
 * Installed before any page script (page.addInitScript): traps that record what a payload would do if it ever ran.
 * Every hostile fixture sets `window.__pwned` or calls alert/confirm/prompt/print/open; CSP violations (a blocked
 * inline script, style or remote resource: markup that reached the DOM as markup) are recorded too.
 */
export function installTraps(): void {
  const w = window as unknown as Record<string, unknown> & { __trapped: string[]; __cspViolations: string[] };
  w.__trapped = [];
  w.__cspViolations = [];
  Object.defineProperty(window, '__pwned', {
    configurable: false,
    get: () => undefined,
    set: (v: unknown) => {
      w.__trapped.push(`__pwned=${String(v)}`);
    },
  });
  for (const name of ['alert', 'confirm', 'prompt', 'print', 'open']) {
    w[name] = (...args: unknown[]) => {
      w.__trapped.push(`${name}(${args.map(String).join(', ')})`);
      return null;
    };
  }
  document.addEventListener('securitypolicyviolation', (e) => {
    w.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`);
  });
}

/** What the traps caught. */
export function trapped(): { trapped: string[]; cspViolations: string[] } {
  const w = window as unknown as { __trapped?: string[]; __cspViolations?: string[] };
  return { trapped: w.__trapped ?? ['traps not installed'], cspViolations: w.__cspViolations ?? [] };
}

/**
 * Everything in the page (or under `scope`, a selector: the parts that list records) that could be active content:
 * event-handler and style attributes, URL attributes with a script-capable scheme, srcdoc, elements that run or
 * load things (record pages have none of them at all), inline scripts, a meta refresh or a base element.
 */
export function activeContent(scope: string | null): string[] {
  const problems: string[] = [];
  const roots: ParentNode[] = scope === null ? [document] : [...document.querySelectorAll(scope)];
  if (scope !== null && roots.length === 0) problems.push(`no element matches ${scope}`);
  const URL_ATTRS = ['href', 'src', 'action', 'formaction', 'data', 'poster', 'background', 'xlink:href', 'srcset', 'ping', 'cite', 'manifest', 'codebase', 'archive', 'lowsrc', 'dynsrc'];
  const ACTIVE = 'iframe, frame, frameset, object, embed, applet, svg, math, img, picture, source, video, audio, track, canvas, style, form, input, button, textarea, select, base, template, portal, marquee, link, meta';
  for (const root of roots) {
    for (const el of root.querySelectorAll('*')) {
      for (const name of el.getAttributeNames()) {
        const lower = name.toLowerCase();
        if (lower.startsWith('on')) problems.push(`<${el.localName}> has an event handler attribute ${name}`);
        if (lower === 'style') problems.push(`<${el.localName}> has a style attribute`);
        if (lower === 'srcdoc') problems.push(`<${el.localName}> has srcdoc`);
        if (URL_ATTRS.includes(lower)) {
          // browsers ignore whitespace and control characters inside a scheme
          const value = (el.getAttribute(name) ?? '').replace(/[\u0000-\u0020\u007f-\u00a0]/g, '');
          if (/^(javascript|data|vbscript|livescript|mocha|blob|file|filesystem):/i.test(value)) {
            problems.push(`<${el.localName} ${name}="${value.slice(0, 60)}">`);
          }
        }
      }
    }
    if (scope !== null) {
      for (const el of root.querySelectorAll(ACTIVE)) problems.push(`<${el.localName}> inside ${scope}`);
    }
  }
  if (scope === null) {
    // The whole page: only the frame's own elements (the CSP meta tag, same-origin stylesheets and scripts).
    for (const el of document.querySelectorAll('iframe, frame, frameset, object, embed, applet, svg, math, img, picture, video, audio, canvas, style, base, portal, form, input, textarea, select')) {
      if (el.closest('[data-site-search], form[role="search"]')) continue;
      problems.push(`<${el.localName}> on the page`);
    }
    for (const s of document.querySelectorAll('script')) {
      const src = s.getAttribute('src');
      if (src === null) problems.push(`an inline script: ${(s.textContent ?? '').slice(0, 60)}`);
      else if (new URL(src, location.href).origin !== location.origin) problems.push(`a script from ${src}`);
    }
    for (const l of document.querySelectorAll('link[href]')) {
      const rel = l.getAttribute('rel') ?? '';
      if (/\b(stylesheet|preload|prefetch|modulepreload|import|manifest|icon)\b/i.test(rel) && new URL(l.getAttribute('href')!, location.href).origin !== location.origin) {
        problems.push(`<link rel="${rel}"> to ${l.getAttribute('href')}`);
      }
    }
    for (const m of document.querySelectorAll('meta[http-equiv]')) {
      if (m.getAttribute('http-equiv')!.toLowerCase() !== 'content-security-policy') problems.push(`<meta http-equiv="${m.getAttribute('http-equiv')}">`);
    }
    if (document.querySelectorAll('meta[http-equiv="Content-Security-Policy"]').length !== 1) problems.push('not exactly one CSP meta tag');
  }
  return problems;
}

/**
 * Archive text reordered by a bidirectional control from a record: every visible text node outside the elements
 * that hold record text (dir="auto", <bdi>, and text that itself carries a control) must read left to right: its
 * first letter left of its last when both are on one line. Returns the text nodes that do not.
 */
export function reorderedArchiveText(): string[] {
  const out: string[] = [];
  const CONTROL = /[\u202A-\u202E\u2066-\u2069]/;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const t = node as Text;
    const text = t.data;
    if (CONTROL.test(text)) continue; // record text itself
    const parent = t.parentElement;
    if (!parent || parent.closest('[dir], bdi, script, style, [hidden]')) continue;
    const letters = [...text.matchAll(/[A-Za-z]/g)].map((m) => m.index!);
    if (letters.length < 2) continue;
    const rect = (i: number) => {
      const r = document.createRange();
      r.setStart(t, i);
      r.setEnd(t, i + 1);
      return r.getBoundingClientRect();
    };
    const a = rect(letters[0]!);
    const b = rect(letters[letters.length - 1]!);
    if (a.width === 0 || b.width === 0 || Math.abs(a.top - b.top) > 2) continue; // not rendered, or wrapped
    if (!(a.left < b.left)) out.push(`${parent.localName}: ${JSON.stringify(text.trim().slice(0, 80))}`);
  }
  return out;
}

/**
 * Every text node containing one of `needles`, with where it sits: inside which element that marks it as the
 * submitter's words (or null), and whether it is in the archive's own chrome.
 */
export function whereTextIs(needles: string[]): { needle: string; marked: string | null; chrome: string | null; tag: string }[] {
  const out: { needle: string; marked: string | null; chrome: string | null; tag: string }[] = [];
  const lowered = needles.map((n) => n.toLowerCase());
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  // The archive's statement that opens the self-reported sections: everything after it is what the record states.
  const note = document.querySelector('p.section-note');
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = (node as Text).data.toLowerCase();
    const hits = needles.filter((_, i) => text.includes(lowered[i]!));
    if (hits.length === 0) continue;
    const el = (node as Text).parentElement!;
    if (el.closest('[hidden]')) continue; // search metadata (never shown)
    let marked: string | null = null;
    const submitted = el.closest('section.submitted');
    const words = el.closest('section.words');
    const selfReported = el.closest('section[aria-labelledby]');
    if (submitted && submitted.querySelector('.submitted-label')?.textContent?.includes("the submitter's words")) marked = 'section.submitted';
    else if (words && words.querySelector('.words-label')?.textContent?.includes("submitter's words")) marked = 'section.words';
    else if (
      selfReported &&
      note?.textContent?.includes('what the record states about itself') &&
      note.compareDocumentPosition(selfReported) & Node.DOCUMENT_POSITION_FOLLOWING
    ) {
      marked = `self-reported section #${selfReported.getAttribute('aria-labelledby')}`;
    }
    // Record text is always in an element of its own direction, never run into the archive's sentences.
    if (marked && !el.closest('[dir="auto"], bdi')) marked = null;
    const chrome = el.closest('h1, h2, h3, .banner, .record-head, .record-boundary, .breadcrumb, .site-header, .site-footer, .facts-panel, .toc, .submitted-label, .submitted-help, .words-label, .section-note');
    for (const needle of hits) {
      out.push({ needle, marked, chrome: chrome ? chrome.localName + (chrome.className ? `.${chrome.className}` : '') : null, tag: el.localName });
    }
  }
  return out;
}

/**
 * Whether plain text leaves every bidirectional embedding, override and isolate it opens closed (UAX #9): text after
 * it is then in the surrounding direction. Node-side helper.
 */
export function bidiBalanced(text: string): boolean {
  const stack: ('e' | 'i')[] = [];
  for (const c of text) {
    if ('\u202A\u202B\u202D\u202E'.includes(c)) stack.push('e');
    else if (c === '\u202C') {
      if (stack[stack.length - 1] === 'e') stack.pop();
    } else if ('\u2066\u2067\u2068'.includes(c)) stack.push('i');
    else if (c === '\u2069') {
      const at = stack.lastIndexOf('i');
      if (at !== -1) stack.length = at;
    }
  }
  return stack.length === 0;
}
