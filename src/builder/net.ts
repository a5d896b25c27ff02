/** HTTP for the builder: Node's global fetch (Node ≥ 20), a time-out on every request, a size cap on every body. */
import { AsyncLocalStorage } from 'node:async_hooks';
import { UsageError } from './cli.ts';

export const DEFAULT_TIMEOUT_SECONDS = 30;
/** Bodies larger than this are refused (a sharded index keeps each document far smaller). */
export const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/** A network or HTTP failure: exits 2. */
export class NetworkError extends Error {
  /**
   * Why the request failed, when it failed at the network: `timeout`, or the system's code (ECONNREFUSED,
   * ECONNRESET, UND_ERR_SOCKET, …). Undefined for failures after an answer arrived.
   */
  readonly reason: string | undefined;
  constructor(message: string, reason?: string) {
    super(message);
    this.reason = reason;
  }
}

/**
 * Network failures that can happen after the request reached the server (no answer in time, the connection reset or
 * closed while waiting): the server may have acted on it. Anything else (refused, unknown host, a blocked port) is
 * taken as never sent.
 */
const MAYBE_SENT = new Set(['timeout', 'ECONNRESET', 'EPIPE', 'ECONNABORTED', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** True when a request that failed with `err` may have reached the server (a time-out, a reset after connecting). */
export function mayHaveBeenSent(err: unknown): boolean {
  return err instanceof NetworkError && err.reason !== undefined && MAYBE_SENT.has(err.reason);
}

export interface FetchedBody {
  status: number;
  headers: Headers;
  bytes: Uint8Array;
  url: string;
}

export function timeoutSeconds(value: string | undefined): number {
  if (value === undefined) return DEFAULT_TIMEOUT_SECONDS;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`--timeout takes a number of seconds (found "${value}")`);
  return n;
}

export function httpUrl(value: string, option: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--${option} must be an absolute http(s) URL (found "${value}")`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--${option} must be an http(s) URL (found "${value}")`);
  return url;
}

/** The system's error code in a plain sentence, the code kept in brackets (undefined for codes not listed). */
function plainReason(code: string | undefined): string | undefined {
  const plain: Record<string, string> = {
    ECONNREFUSED: 'the connection was refused: nothing answers at that address and port',
    ENOTFOUND: 'the host name was not found',
    EAI_AGAIN: 'the host name could not be looked up (DNS did not answer)',
    ECONNRESET: 'the connection was reset',
    EHOSTUNREACH: 'the host cannot be reached from here',
    ENETUNREACH: 'the network cannot be reached from here',
    ETIMEDOUT: 'the connection timed out',
    UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
    BAD_PORT: 'fetch refuses to connect to that port (a blocked port)',
  };
  return code !== undefined && plain[code] ? `${plain[code]} (${code})` : undefined;
}

/** Reasons of a NetworkError that mean the address itself did not answer: the hint is then to check the address. */
const UNREACHABLE = new Set(['timeout', 'BAD_PORT', 'ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * A NetworkError whose address did not answer, with a sentence naming where the address came from and the option
 * that changes it; any other error as it is.
 */
export function withAddressHint(err: unknown, what: string, option: string, fromDefault: boolean, defaultSource: string): unknown {
  if (!(err instanceof NetworkError) || err.reason === undefined || !UNREACHABLE.has(err.reason)) return err;
  const hint = fromDefault
    ? `Is the address right? It is the ${what} this builder was built for (${defaultSource}); give another with --${option} URL.`
    : `Is the address right? Check the ${what} you gave with --${option}.`;
  return new NetworkError(`${err.message}.\n${hint}`, err.reason);
}

/**
 * Headers added to every request to one origin made while `fn` runs (and by what it starts): the gateway runs the
 * builder's commands against itself for its /mcp tools (src/gateway/mcp.ts) and marks those calls as its own, so that
 * they are not charged again to its own loopback address. Requests to any other origin never carry them.
 */
const headersForOrigin = new AsyncLocalStorage<{ origin: string; headers: Readonly<Record<string, string>> }>();

export function withHeadersFor<T>(origin: string, headers: Readonly<Record<string, string>>, fn: () => Promise<T>): Promise<T> {
  return headersForOrigin.run({ origin: new URL(origin).origin, headers }, fn);
}

/** init's headers, with those withHeadersFor gives for the origin of `url`. */
function headersFor(url: string, headers: HeadersInit | undefined): HeadersInit | undefined {
  const extra = headersForOrigin.getStore();
  if (extra === undefined || !URL.canParse(url) || new URL(url).origin !== extra.origin) return headers;
  const merged = new Headers(headers);
  for (const [name, value] of Object.entries(extra.headers)) merged.set(name, value);
  return merged;
}

export async function request(url: string, init: RequestInit & { timeoutSeconds: number }): Promise<FetchedBody> {
  const { timeoutSeconds: seconds, ...rest } = init;
  let res: Response;
  try {
    res = await fetch(url, { ...rest, headers: headersFor(url, rest.headers), redirect: 'follow', signal: AbortSignal.timeout(seconds * 1000) });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    const timedOut = (err as Error).name === 'TimeoutError';
    // fetch refuses some ports outright (the "bad port" list of the Fetch standard): nothing was sent.
    const code = cause?.code ?? (cause?.message === 'bad port' ? 'BAD_PORT' : undefined);
    const why = timedOut ? `no answer within ${seconds} s` : (plainReason(code) ?? code ?? cause?.message ?? (err as Error).message);
    throw new NetworkError(`cannot reach ${url}: ${why}`, timedOut ? 'timeout' : (code ?? 'unknown'));
  }
  const declared = Number(res.headers.get('content-length') ?? '0');
  if (declared > MAX_RESPONSE_BYTES) throw new NetworkError(`${url} answered with ${declared} bytes, more than the ${MAX_RESPONSE_BYTES} the builder reads`);
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await res.arrayBuffer());
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause;
    throw new NetworkError(`reading the answer of ${url} failed: ${(err as Error).message}`, (err as Error).name === 'TimeoutError' ? 'timeout' : (cause?.code ?? 'unknown'));
  }
  if (bytes.byteLength > MAX_RESPONSE_BYTES) throw new NetworkError(`${url} answered with more than ${MAX_RESPONSE_BYTES} bytes`);
  return { status: res.status, headers: res.headers, bytes, url: res.url || url };
}

/**
 * GET that must answer 200; anything else is a NetworkError. With `{ absentOn404: true }` a 404 is an answer too
 * (undefined): for documents a site may lawfully not have (no transparency log, a tile beyond the tree).
 */
export async function getOk(url: string, seconds: number, accept?: string): Promise<FetchedBody>;
export async function getOk(url: string, seconds: number, accept: string, options: { absentOn404: true }): Promise<FetchedBody | undefined>;
export async function getOk(url: string, seconds: number, accept = 'application/json', options?: { absentOn404: true }): Promise<FetchedBody | undefined> {
  const body = await request(url, { method: 'GET', headers: { accept }, timeoutSeconds: seconds });
  if (body.status === 404 && options?.absentOn404) return undefined;
  if (body.status !== 200) throw new NetworkError(`GET ${url} answered HTTP ${body.status}`);
  return body;
}

/** Parses JSON from a response; a NetworkError when it is not JSON. */
export function jsonOf(body: FetchedBody): unknown {
  try {
    return JSON.parse(Buffer.from(body.bytes).toString('utf8'));
  } catch {
    throw new NetworkError(`${body.url} did not answer with JSON (HTTP ${body.status})`);
  }
}
