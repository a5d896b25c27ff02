/**
 * Escaping for the site's string renderers (src/site/render/). `text` is html-escaper's `escape`, the function
 * Astro uses for text; `attribute` is Astro's own rule for a double-quoted attribute value (& and " are the only
 * characters that matter there), so pages rendered by these functions and by Astro's components are byte-identical.
 */
export { escape as text } from 'html-escaper';

/** A value for a double-quoted attribute. */
export function attribute(value: string): string {
  // Most values (every URL of a listing page) have neither: look before replacing, as Astro's own rule does.
  if (!value.includes('&') && !value.includes('"')) return value;
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
}
