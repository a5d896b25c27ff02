/**
 * The path of a request target, origin-form ("/a/b?q", and "//x", which is a path, not a host) or absolute-form;
 * anything else ("*") is kept as it is and routed nowhere (404). Never throws: a bad target is not a 500.
 */
export function pathOf(target: string): string {
  try {
    return new URL(target.startsWith('/') ? `http://gateway.invalid${target}` : target).pathname;
  } catch {
    return target;
  }
}
