/**
 * Per-request observation: a request id (sent back as X-Request-Id and carried by every error envelope), one JSON
 * log line when the answer is finished or the connection dropped, and the request metrics. server.ts calls
 * `begin` first thing for every request (shed ones too) and `noteError` where it answers an error.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { GATEWAY_KEYS_PATH, HEALTH_PATH, PREFLIGHT_PATH, READY_PATH, RECEIPTS_PATH, RETIRED_PATHS, SUBMISSIONS_PATH, SUBMIT_PATH } from '../core/record-chain/index.ts';
import { clientAddress, isTrustedPeer, type ClientAddressSettings } from './client-address.ts';
import type { Logger } from './log.ts';
import type { GatewayMetrics } from './metrics.ts';
import { pathOf } from './request-path.ts';

export const REQUEST_ID_HEADER = 'x-request-id';
/** An id a trusted proxy sends along (nginx's $request_id, a UUID, …) is kept when it looks like one. */
const FORWARDED_REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

interface RequestState {
  requestId: string;
  client: string;
  errorCode?: string;
}

/** Keyed by both the request and its response: the server's helpers hold one or the other. */
const states = new WeakMap<IncomingMessage | ServerResponse, RequestState>();

/** The id of the request `res` answers (undefined outside an observed server). */
export function requestIdOf(res: ServerResponse): string | undefined {
  return states.get(res)?.requestId;
}

/** The client address of `req`, as the rate limiter should see it (behind trusted proxies, the real client). */
export function clientOf(req: IncomingMessage): string | undefined {
  return states.get(req)?.client;
}

/** Records the error code of the answer (for the log line and gateway_rejections_total). */
export function noteError(res: ServerResponse, code: string): void {
  const state = states.get(res);
  if (state) state.errorCode = code;
}

/** The route template of a path: a bounded label set for metrics, whatever paths clients send. */
export function routeLabel(path: string, metricsPath?: string): string {
  if ([PREFLIGHT_PATH, SUBMIT_PATH, GATEWAY_KEYS_PATH, HEALTH_PATH, READY_PATH, '/mcp'].includes(path) || path === metricsPath) return path;
  if (path.startsWith(`${RECEIPTS_PATH}/`)) return `${RECEIPTS_PATH}/{receipt_id}`;
  // By route, never by hash: the label set stays bounded whatever hashes clients ask for.
  if (path.startsWith(`${SUBMISSIONS_PATH}/`)) return `${SUBMISSIONS_PATH}/{submission_sha256}`;
  if (path === '/gateway' || RETIRED_PATHS.some((p) => (p.endsWith('/*') ? path.startsWith(p.slice(0, -1)) : path === p))) return 'retired';
  return 'unmatched';
}

export interface ObserverOptions {
  logger: Logger;
  metrics?: GatewayMetrics;
  clientAddress?: ClientAddressSettings;
  metricsPath?: string;
}

export function requestObserver(options: ObserverOptions) {
  const { logger, metrics } = options;
  return {
    begin(req: IncomingMessage, res: ServerResponse): RequestState {
      const started = process.hrtime.bigint();
      const client = clientAddress(req.socket.remoteAddress, req.headers, options.clientAddress);
      const forwardedId = req.headers[REQUEST_ID_HEADER];
      const requestId = isTrustedPeer(req.socket.remoteAddress, options.clientAddress) && typeof forwardedId === 'string' && FORWARDED_REQUEST_ID.test(forwardedId) ? forwardedId : randomUUID();
      const state: RequestState = { requestId, client };
      states.set(res, state);
      states.set(req, state);
      res.setHeader(REQUEST_ID_HEADER, requestId);
      metrics?.inFlight.inc();
      res.once('close', () => {
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        const path = pathOf(req.url ?? '/');
        const route = routeLabel(path, options.metricsPath);
        // An answer cut off before its last byte (the client went away) is logged as status 0.
        const status = res.writableFinished ? res.statusCode : 0;
        if (metrics) {
          metrics.inFlight.dec();
          metrics.requests.inc({ route, method: req.method ?? '', status: String(status) });
          metrics.duration.observe({ route }, seconds);
          if (state.errorCode) metrics.rejections.inc({ reason: state.errorCode });
          if (route === SUBMIT_PATH && status !== 0) {
            const result = status === 202 ? 'new' : status === 200 ? 'duplicate' : status === 422 ? 'invalid' : undefined;
            if (result) metrics.submissions.inc({ result });
          }
        }
        logger.log(status >= 500 || status === 0 ? 'warn' : 'info', 'request', {
          request_id: requestId,
          client,
          method: req.method,
          path: path.length > 200 ? `${path.slice(0, 200)}…` : path,
          route,
          status,
          ...(state.errorCode ? { error_code: state.errorCode } : {}),
          duration_ms: Math.round(seconds * 1e4) / 10,
          bytes_in: Number(req.headers['content-length'] ?? 0) || 0,
        });
      });
      return state;
    },
  };
}
