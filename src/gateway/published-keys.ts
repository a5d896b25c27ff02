/**
 * The gateway keys document the static site publishes at /api/gateway-keys.json (src/pages/api/gateway-keys.json.ts):
 *   1. GATEWAY_KEYS_FILE, when set: that file (a service.gateway-keys.v1 document; a broken file fails the build);
 *   2. else <GATEWAY_DATA_DIR>/gateway-keys.json, when the gateway has run on this machine and written it;
 *   3. else an empty keys list (no gateway key is published: receipts cannot be verified against this site).
 * The private key is never read here.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gatewayKeysDocument, readGatewayKeys, type GatewayKeysDocument } from '../core/record-chain/index.ts';
import { gatewayDataDir } from './config.ts';
import { KEYS_DOCUMENT_FILE } from './keys.ts';

export function publishedGatewayKeys(env: Record<string, string | undefined> = process.env): GatewayKeysDocument {
  const explicit = env.GATEWAY_KEYS_FILE?.trim();
  const path = explicit || join(gatewayDataDir(env), KEYS_DOCUMENT_FILE);
  if (!explicit && !existsSync(path)) return gatewayKeysDocument([]);
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new Error(`the gateway keys file ${path} cannot be read as JSON: ${(err as Error).message}`);
  }
  const reading = readGatewayKeys(value);
  if (!reading.keys) throw new Error(`the gateway keys file ${path} is not a service.gateway-keys.v1 document: ${reading.problems.join('; ')}`);
  // Only the public fields are republished.
  return gatewayKeysDocument(reading.keys.keys.map(({ key_id, algorithm, public_key, status, created_at, retired_at }) => ({
    key_id, algorithm, public_key, status,
    ...(created_at ? { created_at } : {}),
    ...(retired_at ? { retired_at } : {}),
  })));
}
