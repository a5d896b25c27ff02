import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalSha256, sha256Hex, sha256HexOfHash } from '../../src/core/crypto/sha256.ts';

describe('sha256Hex', () => {
  it('FIPS 180-2 vectors, lowercase hex', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex(new Uint8Array(Buffer.from('abc')))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('hashes the UTF-8 encoding of a string', () => {
    expect(sha256Hex('€')).toBe(createHash('sha256').update(Buffer.from([0xe2, 0x82, 0xac])).digest('hex'));
  });

  it('gives what a Hash object gives (the way of a Node without the one-shot hash), for any string or bytes', () => {
    // Lone surrogates included: both encode one as U+FFFD, as Buffer.from does.
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)) }), fc.uint8Array()), (data) => {
        const expected = createHash('sha256').update(Buffer.from(data)).digest('hex');
        expect(sha256Hex(data)).toBe(expected);
        expect(sha256HexOfHash(data)).toBe(expected);
      }),
    );
  });
});

describe('canonicalSha256', () => {
  it('is the SHA-256 of the canonical text, whatever the key order or spacing', () => {
    const expected = createHash('sha256').update('{"a":[1,{"c":3,"d":4}],"b":"x"}').digest('hex');
    expect(canonicalSha256({ b: 'x', a: [1, { d: 4, c: 3 }] })).toBe(expected);
    expect(canonicalSha256(JSON.parse('{ "a" : [ 1 , { "c" : 3 , "d" : 4 } ] , "b" : "x" }'))).toBe(expected);
  });

  it('changes with any value', () => {
    expect(canonicalSha256({ a: 1 })).not.toBe(canonicalSha256({ a: 2 }));
    expect(canonicalSha256({ a: 1 })).toMatch(/^[0-9a-f]{64}$/);
  });
});
