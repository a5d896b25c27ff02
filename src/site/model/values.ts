/**
 * Safe access to record fields: record values are untrusted data of any JSON type (a valid record may still lack
 * optional fields, and legacy kinds lack most). Plain functions, for the string renderers (src/site/render/).
 */

export function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function object(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

export function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
