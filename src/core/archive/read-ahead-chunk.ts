/**
 * One chunk of an archive's files read ahead of the validation (read-ahead.ts), by the thread that reads ahead or by
 * the validation itself while it would otherwise wait: each file read through one descriptor (its device and inode,
 * its bytes), its bytes hashed, all of the chunk's bytes in one buffer.
 *
 * A file it cannot read as a whole regular file within the size limit (gone, not a file, too large, changed size
 * while it was read) it leaves to the validation, which reads it itself and reports it as it always does.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { sha256Hex } from '../crypto/sha256.ts';
import { fileIdentity } from '../util/file-identity.ts';
import type { ChunkRing, ReadAheadChunk } from './read-ahead-protocol.ts';

/**
 * Chunk `index` of `paths` (under `root`), read into its slot of `ring` when given and the chunk fits, else into a
 * buffer of its own: each file as [offset, length, identity, sha256], or null when it is left to the validation.
 */
export function readChunk(root: string, paths: readonly string[], index: number, chunkSize: number, maxBytes: number, ring?: ChunkRing): ReadAheadChunk {
  const names = paths.slice(index * chunkSize, (index + 1) * chunkSize);
  const open: ({ fd: number; size: number; identity: string } | null)[] = [];
  try {
    for (const name of names) open.push(openFile(`${root}/${name}`, maxBytes));
    // One spare byte a file: a file that fills it grew after its size was read, and is left to the validation.
    const size = open.reduce((sum, f) => sum + (f ? f.size + 1 : 0), 0);
    const inRing = ring !== undefined && size <= ring.slotBytes;
    const buffer = inRing ? ring.buffer : new ArrayBuffer(size);
    let offset = inRing ? (index % ring.slots) * ring.slotBytes : 0;
    const files = open.map((f): ReadAheadChunk['files'][number] => {
      if (!f) return null;
      const view = new Uint8Array(buffer, offset, f.size + 1);
      const start = offset;
      offset += f.size + 1;
      const length = readAll(f.fd, view);
      if (length === undefined || length > f.size) return null;
      return [start, length, f.identity, sha256Hex(view.subarray(0, length))];
    });
    return inRing ? { index, files } : { index, buffer: buffer as ArrayBuffer, files };
  } finally {
    for (const f of open) if (f) closeSync(f.fd);
  }
}

function openFile(path: string, maxBytes: number): { fd: number; size: number; identity: string } | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return null;
  }
  try {
    const status = fstatSync(fd, { bigint: true });
    if (status.isFile() && status.size <= BigInt(maxBytes)) return { fd, size: Number(status.size), identity: fileIdentity(status) };
  } catch {
    // left to the validation, below
  }
  closeSync(fd);
  return null;
}

/** Reads from the file's start until the view is full or the file ends: how many bytes were read (undefined: an error). */
function readAll(fd: number, view: Uint8Array): number | undefined {
  let length = 0;
  try {
    while (length < view.length) {
      const n = readSync(fd, view, length, view.length - length, length);
      if (n === 0) break;
      length += n;
    }
  } catch {
    return undefined;
  }
  return length;
}
