/**
 * A record's values shown for people, as HTML strings: booleans as Yes/No badges, values from a fixed list as
 * readable labels, free text as escaped text in its own direction, lists as lists, objects as nested label/value
 * lists (recursively).
 *
 * Why strings and not Astro components: a record page shows every field of a record, nested objects included, and
 * as recursive components that was a couple of hundred component instances per page, the larger part of the site
 * build's time at 10,000 records. These functions build the same markup directly. Every record string goes through
 * `escape` (html-escaper, the escaper Astro itself uses for text), and the only markup written here is the fixed
 * tags and class names below: record data is only ever text, never markup, an attribute name or a link.
 */
import { escape } from 'html-escaper';
import { fieldLabel, valueLabel } from '../model/labels.ts';
import { isEnumField } from '../model/schema-fields.ts';

/** Nesting depth past which a value is shown as compact JSON (a hostile record may nest deeply; valid ones do not). */
export const MAX_DEPTH = 8;

/** Fields whose values are identifiers, hashes, keys, paths or commands: shown in monospace. */
const CODE_FIELDS = new Set([
  'command', 'validation_command', 'session_or_run_id', 'public_key', 'signature', 'content_hash_sha256',
  'commitment_hash', 'path', 'report_id', 'schema_version', 'builder_version', 'evidence_input', 'claim_gate_output',
  'generated_at_utc', 'target_record_hash_sha256', 'challenge_hash_sha256', 'nonce', 'guardian_id',
  'public_key_sha256', 'public_key_pem', 'signed_payload_sha256', 'signature_base64', 'claim_id', 'policy', 'schema',
]);

const NONE = '<span class="muted">none</span>';
const EMPTY = '<span class="muted">(empty)</span>';

/** One value of the field `field` (which decides labels of enum values and monospace), at nesting depth `depth`. */
export function fieldValueHtml(field: string, value: unknown, depth = 0): string {
  if (value === null || value === undefined) return NONE;
  if (typeof value === 'boolean') return value ? '<span class="flag flag-yes">Yes</span>' : '<span class="flag flag-no">No</span>';
  if (typeof value === 'number') return `<span class="num">${escape(String(value))}</span>`;
  if (typeof value === 'string') {
    if (value === '') return EMPTY;
    if (CODE_FIELDS.has(field)) return `<code class="code-value">${escape(value)}</code>`;
    if (isEnumField(field)) return `<span class="enum">${escape(valueLabel(field, value))}</span>`;
    return `<span class="text" dir="auto">${escape(value)}</span>`;
  }
  if (Array.isArray(value)) {
    if (field === 'command' && value.every((v) => typeof v === 'string')) {
      return `<code class="code-value">${escape(value.join(' '))}</code>`;
    }
    if (depth >= MAX_DEPTH) return `<code class="json">${escape(JSON.stringify(value))}</code>`;
    if (value.length === 0) return NONE;
    const items = value.map((item) => `<li>${fieldValueHtml(field, item, depth + 1)}</li>`).join('');
    return value.every((v) => v === null || typeof v !== 'object')
      ? `<ul class="values">${items}</ul>`
      : `<ol class="values values-objects">${items}</ol>`;
  }
  if (depth >= MAX_DEPTH) return `<code class="json">${escape(JSON.stringify(value))}</code>`;
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return EMPTY;
  return `<dl class="fields fields-nested">${entries.map(([key, v]) => row(key, v, depth + 1)).join('')}</dl>`;
}

function row(key: string, value: unknown, depth: number): string {
  return `<dt dir="auto">${escape(fieldLabel(key))}</dt><dd>${fieldValueHtml(key, value, depth)}</dd>`;
}

export interface FieldListOptions {
  /** Keys to show first, in this order (missing ones are skipped). */
  order?: readonly string[];
  /** Keys not to show here (shown elsewhere on the page). */
  omit?: readonly string[];
}

/**
 * A record object (or part of one) as a label/value list: the keys of `order` first, then every other key the
 * object has (so no field is ever left out), less those in `omit`. Empty string when no key is left.
 */
export function fieldListHtml(value: Readonly<Record<string, unknown>>, options: FieldListOptions = {}): string {
  const { order = [], omit = [] } = options;
  const keys = [...order.filter((k) => Object.hasOwn(value, k)), ...Object.keys(value).filter((k) => !order.includes(k))]
    .filter((k) => !omit.includes(k));
  if (keys.length === 0) return '';
  return `<dl class="fields">${keys.map((key) => row(key, value[key], 0)).join('')}</dl>`;
}
