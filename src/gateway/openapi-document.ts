/**
 * The published OpenAPI description of this gateway (/api/gateway-openapi.json): the core's gatewayOpenApi with the
 * site configuration, the limits policy and the gateway's default rate limits (config.ts).
 */
import type { SiteConfig } from '../core/config.ts';
import { gatewayOpenApi, recordChainLimits } from '../core/record-chain/index.ts';
import { DEFAULT_RATE_LIMIT } from './config.ts';

export function gatewayDescription(site: SiteConfig): Record<string, unknown> {
  return gatewayOpenApi({ baseUrl: site.baseUrl, gatewayUrl: site.gatewayUrl, limits: recordChainLimits(), rateLimit: DEFAULT_RATE_LIMIT });
}
