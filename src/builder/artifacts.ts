/**
 * Artifacts hashed by the builder itself, for the `evidence` command: a local file read as a stream, or a URL
 * fetched and hashed as it arrives, with a time-out on the whole transfer and a size cap. The hash is the core's
 * (sha256OfStream); nothing here trusts a hash that it did not compute.
 */
import { createReadStream, statSync } from 'node:fs';
import { sha256OfStream, TooManyBytesError } from '../core/crypto/sha256.ts';
import { UsageError } from './cli.ts';
import { NetworkError } from './net.ts';

/** Default cap on an artifact fetched from a URL (local files have none: they are streamed from disk). */
export const DEFAULT_ARTIFACT_MAX_BYTES = 512 * 1024 * 1024;
export const DEFAULT_ARTIFACT_TIMEOUT_SECONDS = 120;

export interface HashedArtifact {
  /** The artifact as the user named it (path or URL). */
  artifact: string;
  sha256: string;
  bytes: number;
  /** For a URL: the URL the bytes came from after redirects. */
  fetchedFrom?: string;
}

export async function hashLocalArtifact(path: string): Promise<HashedArtifact> {
  let size: number;
  try {
    const stat = statSync(path);
    if (!stat.isFile()) throw new UsageError(`--artifact ${path} is not a regular file`);
    size = stat.size;
  } catch (err) {
    if (err instanceof UsageError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot read --artifact ${path}: ${code === 'ENOENT' ? 'no such file' : (err as Error).message}`);
  }
  try {
    const { sha256, bytes } = await sha256OfStream(createReadStream(path));
    if (bytes !== size) throw new UsageError(`--artifact ${path} changed while it was read (${size} bytes before, ${bytes} read): hash it again when it is stable`);
    return { artifact: path, sha256, bytes };
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`cannot read --artifact ${path}: ${(err as Error).message}`);
  }
}

export async function hashUrlArtifact(url: string, { timeoutSeconds, maxBytes }: { timeoutSeconds: number; maxBytes: number }): Promise<HashedArtifact> {
  // One signal for the whole transfer: a server that trickles bytes is stopped at the same deadline.
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error(`no complete answer within ${timeoutSeconds} s`)), timeoutSeconds * 1000);
  try {
    let res: Response;
    try {
      res = await fetch(url, { redirect: 'follow', signal: controller.signal, headers: { accept: '*/*' } });
    } catch (err) {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      throw new NetworkError(`cannot fetch --artifact-url ${url}: ${controller.signal.aborted ? String((controller.signal.reason as Error).message) : (cause?.code ?? cause?.message ?? (err as Error).message)}`);
    }
    if (res.status !== 200) {
      await res.body?.cancel().catch(() => {});
      throw new NetworkError(`GET ${url} answered HTTP ${res.status}: nothing to hash`);
    }
    const declared = Number(res.headers.get('content-length') ?? 'NaN');
    if (Number.isFinite(declared) && declared > maxBytes) {
      await res.body?.cancel().catch(() => {});
      throw new NetworkError(`${url} is ${declared} bytes, more than --max-bytes ${maxBytes}: raise --max-bytes, or download it and give --artifact`);
    }
    if (!res.body) throw new NetworkError(`${url} answered without a body`);
    try {
      const { sha256, bytes } = await sha256OfStream(res.body as unknown as AsyncIterable<Uint8Array>, maxBytes);
      return { artifact: url, sha256, bytes, fetchedFrom: res.url || url };
    } catch (err) {
      controller.abort();
      if (err instanceof TooManyBytesError) {
        throw new NetworkError(`${url} sent more than --max-bytes ${maxBytes} bytes; stopped reading: raise --max-bytes, or download it and give --artifact`);
      }
      const why = controller.signal.aborted && controller.signal.reason instanceof Error ? controller.signal.reason.message : (err as Error).message;
      throw new NetworkError(`reading ${url} failed: ${why}`);
    }
  } finally {
    clearTimeout(timer);
  }
}
