/**
 * The thread that reads an archive's files ahead of its validation (read-ahead.ts says how the two share the work):
 * it claims the next chunk of files, reads it (read-ahead-chunk.ts) into the ring the two threads share, or into a
 * buffer of its own that it moves rather than copies, and posts it. It stays at most `window` chunks ahead of the
 * chunk the validation is at, so the bytes in flight stay bounded whatever the archive's size.
 *
 * Imports nothing of the project but the chunk's reading (with the core's SHA-256) and the protocol: the thread starts
 * while the validation is already reading, and every module it loads delays it.
 */
import { workerData, type MessagePort } from 'node:worker_threads';
import { readChunk } from './read-ahead-chunk.ts';
import { CONTROL, STATE, type ReadAheadData } from './read-ahead-protocol.ts';

const { root, paths, port, control, chunkSize, window, maxBytes, ring } = workerData as ReadAheadData & { port: MessagePort };
const ctrl = new Int32Array(control);
const chunks = Math.ceil(paths.length / chunkSize);

try {
  while (Atomics.load(ctrl, CONTROL.state) === STATE.running) {
    const next = Atomics.load(ctrl, CONTROL.claimed);
    if (next >= chunks) break;
    const at = Atomics.load(ctrl, CONTROL.consumed);
    if (next > at + window) {
      // Far enough ahead: wait until the validation moves on (or a while, then look again).
      Atomics.wait(ctrl, CONTROL.consumed, at, 200);
      continue;
    }
    // The validation claims a chunk the same way when it gets there first: whoever wins reads it.
    if (Atomics.compareExchange(ctrl, CONTROL.claimed, next, next + 1) !== next) continue;
    const chunk = readChunk(root, paths, next, chunkSize, maxBytes, ring);
    port.postMessage(chunk, chunk.buffer ? [chunk.buffer] : []);
    Atomics.add(ctrl, CONTROL.delivered, 1);
    Atomics.notify(ctrl, CONTROL.delivered);
  }
} catch {
  // Whatever went wrong, the validation reads the rest itself; nothing is lost but the help.
  Atomics.store(ctrl, CONTROL.state, STATE.failed);
  Atomics.notify(ctrl, CONTROL.delivered);
}
port.close();

