/**
 * The submitter's Ed25519 key directory: `private-key.pem` (PKCS#8, file mode 0600, never printed) and
 * `public-key.pem` (SPKI). The private key never leaves the directory: the builder signs with it, nothing else.
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { KeyFileError, readPrivateKeyFile } from '../core/crypto/key-file.ts';
import { generateEd25519KeyPair, privateKeyFromPem, publicKeyToBase64 } from '../core/crypto/ed25519.ts';
import { UsageError } from './cli.ts';

export const PRIVATE_KEY_FILE = 'private-key.pem';
export const PUBLIC_KEY_FILE = 'public-key.pem';

export interface KeygenResult {
  privateKeyPath: string;
  publicKeyPath: string;
  publicKeyBase64: string;
}

export function generateKeyDir(dir: string): KeygenResult {
  const abs = resolve(dir);
  const privateKeyPath = join(abs, PRIVATE_KEY_FILE);
  const publicKeyPath = join(abs, PUBLIC_KEY_FILE);
  if (existsSync(privateKeyPath) || existsSync(publicKeyPath)) {
    throw new UsageError(`${abs} already holds a key (${PRIVATE_KEY_FILE}); it is never overwritten. Use another --key-dir.`);
  }
  mkdirSync(abs, { recursive: true, mode: 0o700 });
  const { privateKey, publicKey } = generateEd25519KeyPair();
  const privatePem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  // 'wx': never replace a file that appeared meanwhile; mode 0600 from creation on (chmod again: umask may differ).
  writeFileSync(privateKeyPath, privatePem, { mode: 0o600, flag: 'wx' });
  if (process.platform !== 'win32') chmodSync(privateKeyPath, 0o600);
  writeFileSync(publicKeyPath, publicKey.export({ format: 'pem', type: 'spki' }).toString(), { mode: 0o644, flag: 'wx' });
  return { privateKeyPath, publicKeyPath, publicKeyBase64: publicKeyToBase64(publicKey) };
}

export interface LoadedKeys {
  privateKey: KeyObject;
  publicKey: KeyObject;
}

export function loadKeyDir(dir: string): LoadedKeys {
  const privateKeyPath = join(resolve(dir), PRIVATE_KEY_FILE);
  if (!existsSync(privateKeyPath)) {
    throw new UsageError(`no ${PRIVATE_KEY_FILE} in ${resolve(dir)}: create a key directory with "keygen --key-dir ${dir}"`);
  }
  let pem: string;
  try {
    pem = readPrivateKeyFile(privateKeyPath, 'the private key file');
  } catch (err) {
    if (err instanceof KeyFileError) throw new UsageError(err.message);
    throw err;
  }
  let privateKey: KeyObject;
  try {
    privateKey = privateKeyFromPem(pem);
  } catch {
    throw new UsageError(`${privateKeyPath} is not a readable private key`);
  }
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new UsageError(`${privateKeyPath} is not an Ed25519 key`);
  return { privateKey, publicKey: createPublicKey(privateKey) };
}
