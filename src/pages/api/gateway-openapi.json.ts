/**
 * /api/gateway-openapi.json: the intake gateway's OpenAPI 3.1 description (routes, request and answer shapes, every
 * status and error code, limits, rate limits, retry advice), generated from the protocol module
 * (src/core/record-chain/openapi.ts, src/gateway/openapi-document.ts).
 */
import type { APIRoute } from 'astro';
import { siteConfig } from '../../core/config.ts';
import { documentText } from '../../core/publish/json.ts';
import { gatewayDescription } from '../../gateway/openapi-document.ts';

export const GET: APIRoute = () =>
  new Response(documentText(gatewayDescription(siteConfig())), { headers: { 'Content-Type': 'application/json' } });
