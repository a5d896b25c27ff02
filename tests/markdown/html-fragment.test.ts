/**
 * The allow-list rebuilder (src/core/markdown/html-fragment.ts) on its own, with a small allow-list of its own:
 * what survives, how it is escaped, what is dropped with its text, and the text a reader sees.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DomUtils, parseDocument } from 'htmlparser2';
import { fragmentText, sanitizeFragment, type AllowList } from '../../src/core/markdown/html-fragment.ts';

const ALLOW: AllowList = {
  elements: {
    p: {},
    br: {},
    b: { title: (value) => value },
    a: { href: (value) => (value.startsWith('https://') ? value : undefined) },
  },
  finish: (name, attributes) => (name === 'a' && attributes.length === 0 ? undefined : attributes),
};
const clean = (html: string) => sanitizeFragment(html, ALLOW);

describe('sanitizeFragment', () => {
  it('keeps allowed elements and attributes, drops the rest and keeps their text', () => {
    expect(clean('<p class="x" onclick="y">a <i>b</i> <b title="t" id="i">c</b></p>')).toBe('<p>a b <b title="t">c</b></p>');
  });

  it('checks each attribute value, and lets finish drop an element while its text stays', () => {
    expect(clean('<a href="https://ok.example/">ok</a>')).toBe('<a href="https://ok.example/">ok</a>');
    expect(clean('<a href="javascript:alert(1)">bad</a>')).toBe('bad');
  });

  it('escapes text and attribute values anew, whatever the input spelled', () => {
    expect(clean('&lt;script&gt; &amp; &#x3c;i&#x3e; "q"')).toBe('&lt;script&gt; &amp; &lt;i&gt; "q"');
    expect(clean('<b title="&quot;><script>x</script>">t</b>')).toBe('<b title="&quot;&gt;&lt;script&gt;x&lt;/script&gt;">t</b>');
  });

  it('drops the text of script, style, textarea and similar elements with them', () => {
    expect(clean('<script>alert(1)</script><style>p{}</style><textarea>x</textarea><noscript><p>n</p></noscript>ok')).toBe('ok');
    expect(clean('<template><p>t</p></template><title>t</title><p>ok</p>')).toBe('<p>ok</p>');
  });

  it('drops comments, processing instructions and CDATA', () => {
    expect(clean('<!-- hidden --><?php x ?><![CDATA[<p>c</p>]]><p>ok</p>')).toBe('<p>ok</p>');
  });

  it('writes void elements without a closing tag and closes only what it opened', () => {
    expect(clean('a<br>b</br>c')).toBe('a<br />b<br />c');
    expect(clean('<p>open')).toBe('<p>open</p>');
    expect(clean('</b></p>x')).toBe('<p></p>x');
  });

  it('reads attribute names case-insensitively and takes the first of a repeated attribute', () => {
    expect(clean('<B TITLE="one" title="two">x</B>')).toBe('<b title="one">x</b>');
  });

  it('does not take allowed names from the object prototype', () => {
    expect(clean('<constructor>x</constructor><b constructor="c" __proto__="p" toString="s">y</b>')).toBe('x<b>y</b>');
  });

  it('property: the output, read again, has only allowed elements and attributes, and keeps its text', () => {
    const piece = fc.constantFrom('<p>', '</p>', '<b title="&quot;t">', '</b>', '<i>', '<br>', '<a href="https://x.example/">', '<a href="x">', '</a>', '<script>', '</script>', '<!--', '-->', '&amp;', '&lt;', '<', '>', '"', 'text', ' ');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (parts) => {
        const out = clean(parts.join(''));
        const document = parseDocument(out);
        for (const element of DomUtils.findAll(() => true, document.children)) {
          expect(Object.keys(ALLOW.elements)).toContain(element.name);
          for (const attribute of Object.keys(element.attribs)) expect(Object.keys(ALLOW.elements[element.name]!)).toContain(attribute);
        }
        // Its text is the text a reader saw in the input, and stays so when the output is read again: no text turns
        // into markup. (Blocks may move: the parser closes a paragraph or a link that another one opens inside, as
        // browsers do, so whitespace is not compared.)
        const letters = (html: string) => fragmentText(html).replace(/\s+/g, '');
        expect(letters(out)).toBe(letters(parts.join('')));
        expect(letters(clean(out))).toBe(letters(out));
      }),
      { numRuns: 500 },
    );
  });
});

describe('fragmentText', () => {
  it('gives the decoded text with a space after each block, without hidden text', () => {
    expect(fragmentText('<h1>Title</h1><p>a &amp; <b>&lt;b&gt;</b></p><ul><li>x</li><li>y</li></ul><script>no</script>')).toBe('Title a & <b> x y ');
  });

  it('ends no block for a tag cut off at the end, which the parser closes without opening it', () => {
    expect(fragmentText('<li>x<li\n')).toBe('x ');
  });
});
