/**
 * Filling the `{base_url}` and `{gateway_url}` placeholders of an authored document from the site configuration
 * (src/core/config.ts). Placeholders are filled in string values only, never in keys; any other `{word}` left in a
 * string is an authoring mistake and throws, so a document is never published half-filled.
 */
import type { SiteConfig } from '../config.ts';

const PLACEHOLDER = /\{([a-z][a-z0-9_]*)\}/g;

export function fillPlaceholders<T>(template: T, config: SiteConfig): T {
  const values: Record<string, string> = { base_url: config.baseUrl, gateway_url: config.gatewayUrl };
  const fill = (value: unknown, at: string): unknown => {
    if (typeof value === 'string') {
      return value.replace(PLACEHOLDER, (whole, name: string) => {
        const replacement = values[name];
        if (replacement === undefined) throw new Error(`unknown placeholder ${whole} at ${at}`);
        return replacement;
      });
    }
    if (Array.isArray(value)) return value.map((item, i) => fill(item, `${at}/${i}`));
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, `${at}/${k}`)]));
    }
    return value;
  };
  return fill(template, '') as T;
}
