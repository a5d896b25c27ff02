/** Text from records made safe to carry as data in XML and plain-text formats. */

/**
 * Characters XML 1.0 does not allow (C0 controls other than tab, newline and carriage return, lone surrogates,
 * U+FFFE, U+FFFF) become U+FFFD. JSON strings may hold all of them; a feed must still parse.
 */
export function xmlSafeText(text: string): string {
  return text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

/** Escaped for XML character data and attribute values (double- or single-quoted). */
export function escapeXml(text: string): string {
  return xmlSafeText(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** At most `max` code points (whole code points, so no surrogate is split), with an ellipsis when cut. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text; // never more code points than code units
  const points = Array.from(text);
  return points.length <= max ? text : points.slice(0, max - 1).join('').trimEnd() + '…';
}

/**
 * Runs of whitespace as single spaces, trimmed: one line, whatever splits lines for the reader. Besides \s (which
 * has CR, LF, VT, FF, U+2028 and U+2029), the characters other line splitters honour (U+0085 NEXT LINE, and the
 * information separators U+001C–U+001E that Python's splitlines breaks on) count as whitespace too, so submitted text
 * can never start a line of its own that would pass for the archive's.
 */
export function oneLine(text: string): string {
  return text.replace(/[\s\u001C-\u001E\u0085]+/g, ' ').trim();
}
