import { describe, expect, it } from 'vitest';
import { childPointer, describePointer, escapePointerToken, parentPointer, pointerOf } from '../../src/core/json/pointer.ts';

describe('JSON pointers (RFC 6901)', () => {
  it('escapes ~ before / so that "~1" in a key round-trips', () => {
    expect(escapePointerToken('a/b')).toBe('a~1b');
    expect(escapePointerToken('m~n')).toBe('m~0n');
    expect(escapePointerToken('~1')).toBe('~01');
    expect(escapePointerToken(3)).toBe('3');
  });

  it('builds pointers from tokens and children', () => {
    expect(pointerOf([])).toBe('');
    expect(pointerOf(['a', 0, 'b/c'])).toBe('/a/0/b~1c');
    expect(childPointer('', 'x')).toBe('/x');
    expect(childPointer('/a', '')).toBe('/a/');
  });

  it('parentPointer drops the last token', () => {
    expect(parentPointer('/a/b~1c')).toBe('/a');
    expect(parentPointer('/a')).toBe('');
    expect(parentPointer('')).toBe('');
  });

  it('describePointer names the whole record "the top level"', () => {
    expect(describePointer('')).toBe('the top level');
    expect(describePointer('/x/0')).toBe('/x/0');
  });
});
