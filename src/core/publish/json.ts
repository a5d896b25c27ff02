/** Deterministic JSON bytes for published documents: the same value always gives the same bytes. */

/** A document as published: 2-space indentation and a final newline (the layout of the authored files). */
export function documentText(value: unknown): string {
  return JSON.stringify(value, null, 2) + '\n';
}

/**
 * A large document with one array item per line, so that it stays compact, greppable and diff-friendly:
 *
 *     {"schema":"…",…,"records":[
 *     {…},
 *     {…}
 *     ]}
 *
 * `head` is everything before the array (its keys come first, in their order); the array is the last member.
 */
export function documentWithItemLines(head: Record<string, unknown>, key: string, items: readonly unknown[]): string {
  return documentWithLines(head, key, items.map((item) => JSON.stringify(item)));
}

/** documentWithItemLines with the items' JSON made already (a caller that measures them first makes it once). */
export function documentWithLines(head: Record<string, unknown>, key: string, lines: readonly string[]): string {
  const prefix = JSON.stringify(head).slice(0, -1);
  const open = `${prefix}${prefix === '{' ? '' : ','}${JSON.stringify(key)}:[`;
  if (lines.length === 0) return `${open}]}\n`;
  return `${open}\n${lines.join(',\n')}\n]}\n`;
}

/** UTF-8 byte length of a string. */
export function utf8Length(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}
