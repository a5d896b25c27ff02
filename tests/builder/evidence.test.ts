/**
 * The evidence command's parts, in process: hashing a URL (streamed, with a time-out and a size cap), pairing
 * artifacts with expected hashes, sha256sum files, and the hash entry it writes (computed_by machine or
 * self_reported). The whole command runs as the bundled builder in tests/gateway/claim-gate-end-to-end.test.ts.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashLocalArtifact, hashUrlArtifact } from '../../src/builder/artifacts.ts';
import { UsageError } from '../../src/builder/cli.ts';
import { hashEntry, nameAndHex, normalizeHex, pairExpected, parseSha256Sums, shellQuote } from '../../src/builder/commands/evidence.ts';
import { NetworkError } from '../../src/builder/net.ts';
import { sha256OfStream, TooManyBytesError } from '../../src/core/crypto/sha256.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const A = 'a'.repeat(64);
const B = 'b'.repeat(64);

describe('sha256OfStream', () => {
  it('hashes chunks as the whole, and counts them', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.uint8Array({ maxLength: 64 }), { maxLength: 8 }), async (chunks) => {
        const whole = Buffer.concat(chunks);
        expect(await sha256OfStream((async function* () { yield* chunks; })())).toEqual({ sha256: hex(whole), bytes: whole.length });
      }),
      { numRuns: 50 },
    );
  });

  it('stops as soon as the cap is passed', async () => {
    let pulled = 0;
    const chunks = (async function* () {
      for (;;) {
        pulled++;
        yield new Uint8Array(10);
      }
    })();
    await expect(sha256OfStream(chunks, 25)).rejects.toBeInstanceOf(TooManyBytesError);
    expect(pulled).toBe(3);
  });
});

describe('artifacts', () => {
  let server: Server;
  let base = '';
  const dir = tempDir('evidence-test-');
  const body = Buffer.from('the artifact bytes\n'.repeat(1000));
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/kit.tar.gz') return void res.end(body);
      if (req.url === '/slow') {
        res.writeHead(200);
        res.write('x'); // then nothing: the transfer never ends
        return;
      }
      if (req.url === '/big-undeclared') {
        res.writeHead(200); // chunked, no Content-Length
        res.write(Buffer.alloc(4096));
        res.end(Buffer.alloc(4096));
        return;
      }
      if (req.url === '/redirect') return void res.writeHead(302, { location: '/kit.tar.gz' }).end();
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('hashes a local file as the bytes on disk', async () => {
    const file = join(dir, 'a.bin');
    writeFileSync(file, body);
    expect(await hashLocalArtifact(file)).toEqual({ artifact: file, sha256: hex(body), bytes: body.length });
  });

  it('refuses a missing file or a directory as a usage error', async () => {
    await expect(hashLocalArtifact(join(dir, 'nope'))).rejects.toThrow(/no such file/);
    await expect(hashLocalArtifact(dir)).rejects.toBeInstanceOf(UsageError);
  });

  it('hashes a URL as it arrives, after redirects', async () => {
    const got = await hashUrlArtifact(`${base}/redirect`, { timeoutSeconds: 5, maxBytes: 1 << 20 });
    expect(got).toMatchObject({ sha256: hex(body), bytes: body.length, fetchedFrom: `${base}/kit.tar.gz` });
  });

  it('stops at the size cap, announced or not', async () => {
    await expect(hashUrlArtifact(`${base}/kit.tar.gz`, { timeoutSeconds: 5, maxBytes: 100 })).rejects.toThrow(/more than --max-bytes 100/);
    await expect(hashUrlArtifact(`${base}/big-undeclared`, { timeoutSeconds: 5, maxBytes: 5000 })).rejects.toThrow(/more than --max-bytes 5000 bytes; stopped reading/);
  });

  it('gives up on a transfer that does not finish in time', async () => {
    await expect(hashUrlArtifact(`${base}/slow`, { timeoutSeconds: 0.3, maxBytes: 1 << 20 })).rejects.toThrow(/within 0.3 s/);
  });

  it('refuses an HTTP error instead of hashing an error page', async () => {
    await expect(hashUrlArtifact(`${base}/missing`, { timeoutSeconds: 5, maxBytes: 1 << 20 })).rejects.toBeInstanceOf(NetworkError);
  });
});

describe('expected hashes', () => {
  it('reads NAME=HEX, with any case and a sha256: prefix', () => {
    expect(nameAndHex(`https://x.example/a?b=c=${A.toUpperCase()}`, 'expected')).toEqual({ name: 'https://x.example/a?b=c', hex: A });
    expect(normalizeHex(`sha256:${B}`, 'expected')).toBe(B);
    expect(() => nameAndHex('file=abc', 'expected')).toThrow(/not a SHA-256/);
    expect(() => nameAndHex(A, 'expected')).toThrow(/ARTIFACT=SHA256/);
  });

  it('reads sha256sum files, text and binary mode', () => {
    expect(parseSha256Sums(`${A}  dist/a.tar.gz\n# comment\n\n${B} *b.bin\n`, 'SUMS')).toEqual([
      { name: 'dist/a.tar.gz', hex: A },
      { name: 'b.bin', hex: B },
    ]);
    expect(() => parseSha256Sums('not a line', 'SUMS')).toThrow(/SUMS:1: not a sha256sum line/);
  });

  it('pairs by exact name, else by file name; every expected hash is used', () => {
    const pairs = pairExpected(['build/a.tar.gz', 'https://x.example/files/b.bin'], [
      { name: 'a.tar.gz', hex: A },
      { name: 'b.bin', hex: B },
    ]);
    expect([...pairs]).toEqual([
      ['build/a.tar.gz', A],
      ['https://x.example/files/b.bin', B],
    ]);
    expect(() => pairExpected(['a.tar.gz'], [])).toThrow(/no expected hash for a.tar.gz/);
    expect(() => pairExpected(['a.tar.gz'], [{ name: 'a.tar.gz', hex: A }, { name: 'typo.bin', hex: B }])).toThrow(/typo.bin matches no --artifact/);
    expect(() => pairExpected(['x/a.tar.gz'], [{ name: 'y/a.tar.gz', hex: A }, { name: 'z/a.tar.gz', hex: B }])).toThrow(/more than one expected hash/);
  });
});

describe('hash entries', () => {
  const common = { expectedSource: 'https://example.org/api/hashes.json', expectedAuthority: 'canonical_manifest_hash', tool: 'builder 1.0' };

  it('a machine entry: computed and match are the machine\'s, with the command and the byte count', () => {
    const entry = hashEntry({ artifact: 'dist/a b.tar.gz', expected: A, computed: { by: 'machine', hashed: { artifact: 'dist/a b.tar.gz', sha256: A, bytes: 12 } }, ...common });
    expect(entry).toEqual({
      artifact: 'dist/a b.tar.gz',
      algorithm: 'SHA-256',
      expected: A,
      computed: A,
      expected_hash_source: common.expectedSource,
      expected_hash_authority_class: 'canonical_manifest_hash',
      command: "node record-chain-builder.mjs evidence --artifact 'dist/a b.tar.gz'",
      match: true,
      computed_by: 'machine',
      computed_with: 'builder 1.0',
      size_bytes: 12,
    });
  });

  it('a typed value is marked self_reported, and a mismatch is match false', () => {
    const entry = hashEntry({ artifact: 'x.bin', expected: A, computed: { by: 'self_reported', hex: B }, ...common });
    expect(entry).toMatchObject({ computed: B, match: false, computed_by: 'self_reported' });
    expect(entry).not.toHaveProperty('computed_with');
  });

  it('quotes arguments for the recorded command', () => {
    expect(shellQuote('plain/path-1.0.tar.gz')).toBe('plain/path-1.0.tar.gz');
    expect(shellQuote("it's")).toBe("'it'\\''s'");
  });
});
