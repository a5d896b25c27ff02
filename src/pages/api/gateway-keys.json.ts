/**
 * /api/gateway-keys.json: the intake gateway's public receipt-signing keys (service.gateway-keys.v1), which the
 * builder's `receipt` command verifies receipts against. Read at build time from GATEWAY_KEYS_FILE, else from the
 * gateway's data directory (GATEWAY_DATA_DIR/gateway-keys.json) when present, else an empty keys list
 * (src/gateway/published-keys.ts).
 */
import type { APIRoute } from 'astro';
import { publishedGatewayKeys } from '../../gateway/published-keys.ts';

export const GET: APIRoute = () =>
  new Response(JSON.stringify(publishedGatewayKeys(), null, 2) + '\n', { headers: { 'Content-Type': 'application/json' } });
