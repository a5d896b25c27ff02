/**
 * The gateway's receipt-signing key: Ed25519, created on first start under the data directory.
 *   <data>/gateway-ed25519.key   PKCS#8 PEM private key, mode 0600, never printed
 *   <data>/gateway-keys.json     the public keys document (service.gateway-keys.v1) that the site publishes
 */
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createPublicKey, type KeyObject } from 'node:crypto';
import { generateEd25519KeyPair, privateKeyFromPem } from '../core/crypto/ed25519.ts';
import { readPrivateKeyFile } from '../core/crypto/key-file.ts';
import { gatewayKeyEntry, gatewayKeyId, gatewayKeysDocument, readGatewayKeys, type GatewayKeysDocument } from '../core/record-chain/index.ts';

export const PRIVATE_KEY_FILE = 'gateway-ed25519.key';
export const KEYS_DOCUMENT_FILE = 'gateway-keys.json';

export interface GatewayKeys {
  privateKey: KeyObject;
  publicKey: KeyObject;
  keyId: string;
  /** The document served at /api/gateway-keys.json. */
  document: GatewayKeysDocument;
}

export function loadOrCreateGatewayKey(dataDir: string, now: Date = new Date()): GatewayKeys {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const keyPath = join(dataDir, PRIVATE_KEY_FILE);
  const docPath = join(dataDir, KEYS_DOCUMENT_FILE);
  let privateKey: KeyObject;
  if (existsSync(keyPath)) {
    // A key others can read could sign receipts in the gateway's name: refused (KeyFileError), never used.
    privateKey = privateKeyFromPem(readPrivateKeyFile(keyPath, 'the gateway key file'));
  } else {
    privateKey = generateEd25519KeyPair().privateKey;
    // 'wx': never overwrite a key another process has just written.
    writeFileSync(keyPath, privateKey.export({ format: 'pem', type: 'pkcs8' }) as string, { mode: 0o600, flag: 'wx' });
    chmodSync(keyPath, 0o600);
  }
  const publicKey = createPublicKey(privateKey);
  const keyId = gatewayKeyId(publicKey);
  // A maintained document (retired or revoked keys beside the current one) is kept; the current key is added as
  // active when the document does not list it yet (a rotation), and a broken document is an error, never replaced.
  let previous: GatewayKeysDocument | undefined;
  if (existsSync(docPath)) {
    const reading = readGatewayKeys(JSON.parse(readFileSync(docPath, 'utf8')));
    if (!reading.keys) throw new Error(`${docPath} is not a gateway keys document: ${reading.problems.join('; ')}`);
    previous = reading.keys;
  }
  const current = previous?.keys.find((k) => k.key_id === keyId);
  if (current && current.status !== 'active') throw new Error(`${docPath} lists the gateway key ${keyId} as ${current.status}: use a new key`);
  let document = previous;
  if (!document || !current) {
    document = gatewayKeysDocument([...(previous?.keys ?? []), gatewayKeyEntry(publicKey, 'active', now.toISOString())]);
    writeFileSync(docPath, JSON.stringify(document, null, 2) + '\n', { mode: 0o644 });
  }
  return { privateKey, publicKey, keyId, document };
}
