/**
 * The authored documents published under /api/ (DECISIONS "Published documents"), other than JSON Schemas:
 * templates in the project's documents/ folder, imported as modules so that every caller (the site, the builder,
 * the gateway) embeds the same text. Each is published at /api/<file name> with `{base_url}` and `{gateway_url}`
 * filled from the site configuration, as 2-space indented JSON with a final newline: the same bytes for the
 * same configuration, every build. The JSON Schemas are in schemas/ (src/core/schema/documents.ts).
 */
import type { SiteConfig } from '../config.ts';
import claimGateEntrypointPolicy from '../../../documents/claim-gate-entrypoint-policy.json' with { type: 'json' };
import propagationPolicy from '../../../documents/propagation-policy.json' with { type: 'json' };
import agentFirstContact from '../../../documents/agent-first-contact.json' with { type: 'json' };
import submissionChecklist from '../../../documents/submission-checklist.json' with { type: 'json' };
import claimGateRules from '../../../documents/claim-gate-rules.json' with { type: 'json' };
import reportBuilderPolicy from '../../../documents/report-builder-policy.json' with { type: 'json' };
import originClassificationPolicy from '../../../documents/origin-classification-policy.v1.json' with { type: 'json' };
import receptionClassificationPolicy from '../../../documents/reception-classification-policy.v1.json' with { type: 'json' };
import recordChainLimits from '../../../documents/record-chain-limits.json' with { type: 'json' };
import { documentText } from './json.ts';
import { fillPlaceholders } from './template.ts';

export interface DocumentTemplate {
  /** File name in documents/ and under /api/. */
  file: string;
  /** The parsed template, placeholders unfilled. */
  template: Record<string, unknown>;
}

export const CLAIM_GATE_ENTRYPOINT_POLICY = 'claim-gate-entrypoint-policy.json';
export const PROPAGATION_POLICY = 'propagation-policy.json';

/** Every authored non-schema document: the spec's (sections 2 and 4, in that order), then the project's own. */
export const documentTemplates: readonly DocumentTemplate[] = [
  { file: CLAIM_GATE_ENTRYPOINT_POLICY, template: claimGateEntrypointPolicy },
  { file: PROPAGATION_POLICY, template: propagationPolicy },
  { file: 'agent-first-contact.json', template: agentFirstContact },
  { file: 'submission-checklist.json', template: submissionChecklist },
  { file: 'claim-gate-rules.json', template: claimGateRules },
  { file: 'report-builder-policy.json', template: reportBuilderPolicy },
  { file: 'origin-classification-policy.v1.json', template: originClassificationPolicy },
  { file: 'reception-classification-policy.v1.json', template: receptionClassificationPolicy },
  // Authored by the record-chain part of the project (src/core/record-chain/limits.ts reads it; its shape is
  // /api/record-chain-limits-schema.v1.json); published here like every document of documents/.
  { file: 'record-chain-limits.json', template: recordChainLimits },
];

export interface PublishedDocument {
  /** Public path, e.g. /api/propagation-policy.json. */
  path: string;
  file: string;
  /** The filled document. */
  value: Record<string, unknown>;
  /** The exact bytes served. */
  text: string;
}

/** One document, filled for `config`. */
export function renderDocument(template: DocumentTemplate, config: SiteConfig): PublishedDocument {
  const value = fillPlaceholders(template.template, config);
  return { path: `/api/${template.file}`, file: template.file, value, text: documentText(value) };
}

/** Every authored document, filled for `config`. */
export function publishedDocuments(config: SiteConfig): PublishedDocument[] {
  return documentTemplates.map((t) => renderDocument(t, config));
}

/** The filled document published as /api/<file>, or undefined. */
export function publishedDocument(file: string, config: SiteConfig): PublishedDocument | undefined {
  const template = documentTemplates.find((t) => t.file === file);
  return template && renderDocument(template, config);
}
