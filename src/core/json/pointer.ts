/** RFC 6901 JSON pointers: the address every diagnostic carries. */

export function escapePointerToken(token: string | number): string {
  return String(token).replaceAll('~', '~0').replaceAll('/', '~1');
}

export function pointerOf(tokens: ReadonlyArray<string | number>): string {
  return tokens.map((t) => '/' + escapePointerToken(t)).join('');
}

export function childPointer(parent: string, token: string | number): string {
  return parent + '/' + escapePointerToken(token);
}

export function parentPointer(pointer: string): string {
  const i = pointer.lastIndexOf('/');
  return i <= 0 ? '' : pointer.slice(0, i);
}

/** How a pointer reads in a message: "the top level" or the pointer itself. */
export function describePointer(pointer: string): string {
  return pointer === '' ? 'the top level' : pointer;
}
