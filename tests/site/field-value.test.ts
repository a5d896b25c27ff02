/**
 * How a record's values are shown on its page (src/site/render/field-value.ts): each JSON type as people read it,
 * and, for any value at all, only the fixed markup of the renderer with every record string kept as text.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Parser } from 'htmlparser2';
import { MAX_DEPTH, fieldListHtml, fieldValueHtml } from '../../src/site/render/field-value.ts';

/** The only elements and attribute values the renderer writes. */
const TAGS = new Set(['span', 'code', 'ul', 'ol', 'li', 'dl', 'dt', 'dd']);
const ATTRIBUTES: Readonly<Record<string, ReadonlySet<string>>> = {
  class: new Set([
    'muted', 'flag flag-yes', 'flag flag-no', 'num', 'code-value', 'enum', 'text', 'json', 'values',
    'values values-objects', 'fields', 'fields fields-nested',
  ]),
  dir: new Set(['auto']),
};

interface Parsed {
  tags: string[];
  attributes: [string, string][];
  text: string;
}

/** Parses an HTML fragment with a real HTML parser (entities decoded, as a browser would). */
function parse(html: string): Parsed {
  const out: Parsed = { tags: [], attributes: [], text: '' };
  const parser = new Parser({
    onopentag(name, attribs) {
      out.tags.push(name);
      for (const [k, v] of Object.entries(attribs)) out.attributes.push([k, v]);
    },
    ontext(text) {
      out.text += text;
    },
  });
  parser.write(html);
  parser.end();
  return out;
}

describe('fieldValueHtml: each JSON type shown for people', () => {
  it('shows booleans as Yes/No badges and numbers as numbers', () => {
    expect(fieldValueHtml('self_reported', true)).toBe('<span class="flag flag-yes">Yes</span>');
    expect(fieldValueHtml('self_reported', false)).toBe('<span class="flag flag-no">No</span>');
    expect(fieldValueHtml('count', 12.5)).toBe('<span class="num">12.5</span>');
  });

  it('shows null, empty strings, empty lists and empty objects as such', () => {
    expect(fieldValueHtml('notes', null)).toBe('<span class="muted">none</span>');
    expect(fieldValueHtml('notes', '')).toBe('<span class="muted">(empty)</span>');
    expect(fieldValueHtml('notes', [])).toBe('<span class="muted">none</span>');
    expect(fieldValueHtml('notes', {})).toBe('<span class="muted">(empty)</span>');
  });

  it('shows free text escaped, in its own direction', () => {
    expect(fieldValueHtml('notes', '<b onclick="x()">hi</b> & \'q\'')).toBe(
      '<span class="text" dir="auto">&lt;b onclick=&quot;x()&quot;&gt;hi&lt;/b&gt; &amp; &#39;q&#39;</span>',
    );
  });

  it('shows identifiers and commands in monospace, a command list as one line', () => {
    expect(fieldValueHtml('public_key', 'ab<c')).toBe('<code class="code-value">ab&lt;c</code>');
    expect(fieldValueHtml('command', ['node', 'check.mjs', '--strict'])).toBe('<code class="code-value">node check.mjs --strict</code>');
    // Not all strings: an ordinary list.
    expect(fieldValueHtml('command', ['node', 1])).toBe(
      '<ul class="values"><li><code class="code-value">node</code></li><li><span class="num">1</span></li></ul>',
    );
  });

  it('shows values of enum fields by their label', () => {
    expect(fieldValueHtml('archive_status', 'superseded')).toMatch(/^<span class="enum">Superseded<\/span>$/);
    expect(fieldValueHtml('notes', 'superseded')).toBe('<span class="text" dir="auto">superseded</span>');
  });

  it('shows lists of values as a bulleted list and lists of objects as a numbered one', () => {
    expect(fieldValueHtml('notes', ['a', 'b'])).toBe(
      '<ul class="values"><li><span class="text" dir="auto">a</span></li><li><span class="text" dir="auto">b</span></li></ul>',
    );
    expect(fieldValueHtml('notes', [{ x: 1 }])).toBe(
      '<ol class="values values-objects"><li><dl class="fields fields-nested"><dt dir="auto">X</dt><dd><span class="num">1</span></dd></dl></li></ol>',
    );
  });

  it('shows nested objects with field labels, and as compact JSON past the depth limit', () => {
    expect(fieldValueHtml('agent_identity', { name_or_model: 'M' })).toBe(
      '<dl class="fields fields-nested"><dt dir="auto">Name or model</dt><dd><span class="text" dir="auto">M</span></dd></dl>',
    );
    let deep: unknown = 'bottom';
    for (let i = 0; i < MAX_DEPTH + 3; i++) deep = { level: deep };
    const html = fieldValueHtml('extensions', deep);
    expect(html.match(/<dl /g)).toHaveLength(MAX_DEPTH);
    expect(html).toContain('<code class="json">{&quot;level&quot;:{&quot;level&quot;:{&quot;level&quot;:&quot;bottom&quot;}}}</code>');
  });
});

describe('fieldListHtml: an object as a label/value list', () => {
  const value = { b: 1, a: 2, c: 3, schema: 'x' };

  it('puts the ordered keys first, then every other key, less the omitted ones', () => {
    const html = fieldListHtml(value, { order: ['c', 'missing'], omit: ['schema'] });
    expect([...html.matchAll(/<dt dir="auto">([^<]*)<\/dt>/g)].map((m) => m[1])).toEqual(['C', 'B', 'A']);
    expect(html.startsWith('<dl class="fields">')).toBe(true);
  });

  it('is empty when no key is left', () => {
    expect(fieldListHtml({ schema: 'x' }, { omit: ['schema'] })).toBe('');
    expect(fieldListHtml({})).toBe('');
  });
});

describe('any record value renders inert, its strings as text', () => {
  const text = fc.string({ unit: 'binary', maxLength: 40 });
  const hostile = fc.constantFrom('<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', "'&amp;", '<!--', ']]>');
  const key = fc.oneof(text, hostile, fc.constantFrom('command', 'archive_status', 'public_key', 'notes', '__proto__'));
  const leaf = fc.oneof(text, hostile, fc.boolean(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(null));
  const { value } = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('array'), tie('object')),
    array: fc.array(tie('value'), { maxLength: 4 }),
    object: fc.dictionary(key, tie('value'), { maxKeys: 4 }),
  }));

  it('writes only the renderer’s own elements and attributes', () => {
    fc.assert(
      fc.property(key, value, (field, v) => {
        const parsed = parse(fieldValueHtml(field, v));
        for (const tag of parsed.tags) expect(TAGS.has(tag), `element <${tag}>`).toBe(true);
        for (const [name, attr] of parsed.attributes) {
          expect(ATTRIBUTES[name]?.has(attr), `attribute ${name}="${attr}"`).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('keeps a free-text string exactly, as the text of the page', () => {
    fc.assert(
      fc.property(fc.oneof(text, hostile), (s) => {
        fc.pre(s !== '');
        const parsed = parse(fieldValueHtml('notes', s));
        expect(parsed.tags).toEqual(['span']);
        expect(parsed.text).toBe(s);
      }),
      { numRuns: 500 },
    );
  });
});
