/**
 * What only propagation records need beside the phrase patterns: the retired paths. The patterns of
 * chain/propagation-forbidden live in the core's one phrase detector, src/core/text/claim-phrases.ts (shared with the
 * archive rule cross/extensions-values, DECISIONS 23).
 */

/** The retired paths (spec 2.3 retired_paths, spec 4): a URL whose path is one of these points to a retired route. */
export function isRetiredPath(pathname: string): boolean {
  return /^\/agent-submit(?:$|[/?#.])/.test(pathname) || pathname.startsWith('/gateway/') || pathname === '/api/agent-submit-gateway.json';
}
