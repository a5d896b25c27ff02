/**
 * The published OpenAPI description of this gateway (/api/gateway-openapi.json): the core's gatewayOpenApi with the
 * site configuration, the limits policy and the gateway's default rate limits (config.ts).
 */
import type { SiteConfig } from '../core/config.ts';
import { gatewayOpenApi, recordChainLimits } from '../core/record-chain/index.ts';
import { gatewaySettings } from './config.ts';
import type { RateLimitSettings } from './rate-limit.ts';

export function gatewayDescription(site: SiteConfig): Record<string, unknown> {
  // The defaults: what a gateway started with no rate-limit settings enforces.
  const rateLimit = gatewaySettings({}).rateLimit as RateLimitSettings;
  return gatewayOpenApi({ baseUrl: site.baseUrl, gatewayUrl: site.gatewayUrl, limits: recordChainLimits(), rateLimit });
}
