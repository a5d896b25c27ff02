/**
 * The archive's files as a validation asks for them, in order, read on two threads: a large archive's validation is
 * mostly reading (a descriptor opened, its status, the bytes, the hash) and parsing, on one thread while the other
 * core waits. Here a worker thread (read-ahead-worker.ts) reads and hashes files ahead of the validation, which parses
 * and judges them; the files the thread has not got to when the validation reaches them the validation reads itself.
 *
 * The files are split into chunks of CHUNK_SIZE, claimed in order by whichever side gets there first (one
 * compare-and-swap on a shared counter), so nothing is read twice and neither waits for a chunk nobody is reading.
 * When the validation reaches a chunk the thread has claimed and not yet posted, it claims and reads the next ones
 * itself until that chunk comes, so that neither side idles while the other reads. Both stay at most WINDOW chunks
 * ahead of the validation, so the bytes in flight are bounded. A chunk comes as one buffer, moved, not copied; or,
 * for a validation that lets each file's bytes go as it moves on (`transient`: the site build's, which streams), in
 * its slot of a ring the two threads share (ChunkRing), so that nothing is allocated per chunk on the validation's
 * thread. The ring has a slot for each chunk the thread may be ahead, one for the chunk the validation is in, and one
 * more: the chunk the validation has just left, whose last file it may still hold while it takes the next.
 *
 * What a file is read as does not depend on who read it: the same bytes, the same identity (the descriptor's device
 * and inode), parsed by the same code (archiveFileOf). A file the thread leaves (not a whole regular file within the
 * size limit, or one that changed size while read) is read by the validation, with the errors it always gives. If the
 * thread fails or cannot start, the validation reads everything itself.
 */
import { Worker, MessageChannel, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { MAX_RECORD_BYTES } from '../rules/file/too-large.ts';
import type { LoadedFile } from './load-archive.ts';
import { readChunk } from './read-ahead-chunk.ts';
import { archiveFileOf, readArchiveFile } from './read-file.ts';
import { CONTROL, CONTROL_SLOTS, STATE, type ChunkRing, type ReadAheadChunk, type ReadAheadData } from './read-ahead-protocol.ts';

/** Below this many files a thread's start (about 0.1 s of the other core) costs more than it saves. */
export const READ_AHEAD_FROM = 1000;
/** Files per chunk: small enough that the validation seldom waits at the start, large enough that a message is rare. */
const CHUNK_SIZE = 32;
/** Chunks the thread may be ahead: at about 7 KB a record, some 1 MB in flight. */
const WINDOW = 4;
/** A ring slot: room for 32 records of 32 KB (the archive's are about 7 KB); a larger chunk gets a buffer of its own. */
const SLOT_BYTES = 1 << 20;
/** How long the validation waits for a chunk the thread claimed before it reads the chunk itself. */
const PATIENCE_MS = 60_000;

export interface ArchiveFileReader {
  /** The file at `path`: the next one in the reader's order (read ahead, or read now), or any other one, read now. */
  read(path: string): LoadedFile;
  /** Stops the thread; the reader then reads every file itself. */
  close(): void;
  /** How many files read so far the thread read (the rest were read by the caller's thread). */
  readonly byThread: number;
}

export interface ReaderOptions {
  /** From how many files on a thread reads ahead (READ_AHEAD_FROM); fewer are read in turn. */
  aheadFrom?: number;
  /**
   * Whether the caller lets each file's bytes go before it reads on into the chunk after the next (a streaming
   * validation, which keeps nothing of a file once it is judged): the bytes may then be read into a ring the threads
   * share and are overwritten after that. Otherwise each file's bytes are its own to keep.
   */
  transient?: boolean;
}

/** A reader of `paths` (the .json files the validation reads, in its order) under `root`. */
export function openArchiveReader(root: string, paths: readonly string[], { aheadFrom = READ_AHEAD_FROM, transient = false }: ReaderOptions = {}): ArchiveFileReader {
  if (paths.length === 0 || paths.length < aheadFrom) return { read: (path) => readArchiveFile(root, path), close: () => undefined, byThread: 0 };
  return new ReadAhead(root, paths, transient ? { buffer: new SharedArrayBuffer((WINDOW + 2) * SLOT_BYTES), slots: WINDOW + 2, slotBytes: SLOT_BYTES } : undefined);
}

class ReadAhead implements ArchiveFileReader {
  private readonly ctrl = new Int32Array(new SharedArrayBuffer(CONTROL_SLOTS * Int32Array.BYTES_PER_ELEMENT));
  private readonly port: MessagePort | undefined;
  private readonly worker: Worker | undefined;
  /** Chunks read ahead (posted by the thread, or read here while waiting) and not yet used, by index. */
  private readonly ready = new Map<number, ReadAheadChunk>();
  /** Index in `paths` of the next file the validation is expected to ask for. */
  private next = 0;
  /** The chunk the validation is in, and its files as read (undefined when the thread failed or kept it too long: read file by file). */
  private chunk = -1;
  private current: ReadAheadChunk | undefined;
  /** The chunks the thread posted (the others were read here), and how many of their files were used. */
  private readonly posted = new Set<number>();
  private fromThread = 0;
  private readonly root: string;
  private readonly paths: readonly string[];
  private readonly ring: ChunkRing | undefined;

  constructor(root: string, paths: readonly string[], ring: ChunkRing | undefined) {
    this.root = root;
    this.paths = paths;
    this.ring = ring;
    const { port1, port2 } = new MessageChannel();
    const data: ReadAheadData & { port: MessagePort } = {
      root,
      paths,
      chunkSize: CHUNK_SIZE,
      window: WINDOW,
      maxBytes: MAX_RECORD_BYTES,
      control: this.ctrl.buffer as SharedArrayBuffer,
      ...(ring === undefined ? {} : { ring }),
      port: port2,
    };
    try {
      this.worker = new Worker(new URL('./read-ahead-worker.ts', import.meta.url), { workerData: data, transferList: [port2] });
      // Never what keeps the process alive, and never a crash of its own: a failed thread leaves the reading here.
      this.worker.unref();
      this.worker.on('error', () => this.fail());
      this.port = port1;
    } catch {
      Atomics.store(this.ctrl, CONTROL.state, STATE.failed);
      port1.close();
    }
  }

  read(path: string): LoadedFile {
    const i = this.next;
    if (this.paths[i] !== path) return readArchiveFile(this.root, path);
    this.next++;
    const index = Math.floor(i / CHUNK_SIZE);
    if (index !== this.chunk) this.enter(index);
    const entry = this.current?.files[i - index * CHUNK_SIZE];
    if (!this.current || !entry) return readArchiveFile(this.root, path);
    if (this.posted.has(index)) this.fromThread++;
    const [offset, length, identity, sha256] = entry;
    return archiveFileOf(path, Buffer.from(this.current.buffer ?? this.ring!.buffer, offset, length), identity, sha256);
  }

  get byThread(): number {
    return this.fromThread;
  }

  close(): void {
    this.fail(STATE.stopped);
    this.ready.clear();
    this.current = undefined;
    this.port?.close();
    void this.worker?.terminate();
  }

  /** Moves to chunk `index`: reads it if nobody has claimed it, else takes it as read ahead (waiting for it if need be). */
  private enter(index: number): void {
    this.chunk = index;
    Atomics.store(this.ctrl, CONTROL.consumed, index);
    Atomics.notify(this.ctrl, CONTROL.consumed);
    for (const old of this.ready.keys()) if (old < index) this.ready.delete(old);
    this.current = this.claim(index) ? this.readHere(index) : this.take(index);
  }

  /** The chunk read ahead, once there; undefined if the thread failed or took too long (then it is read file by file). */
  private take(index: number): ReadAheadChunk | undefined {
    const deadline = performance.now() + PATIENCE_MS;
    for (;;) {
      const seen = Atomics.load(this.ctrl, CONTROL.delivered);
      this.drain();
      const chunk = this.ready.get(index);
      if (chunk) {
        this.ready.delete(index);
        return chunk;
      }
      if (Atomics.load(this.ctrl, CONTROL.state) !== STATE.running) return undefined;
      // Rather than wait for the thread, read the next chunk nobody has claimed, within the window.
      const ahead = Atomics.load(this.ctrl, CONTROL.claimed);
      if (ahead <= index + WINDOW && ahead * CHUNK_SIZE < this.paths.length && this.claim(ahead)) {
        this.ready.set(ahead, this.readHere(ahead));
        continue;
      }
      const left = deadline - performance.now();
      if (left <= 0) {
        this.fail();
        return undefined;
      }
      Atomics.wait(this.ctrl, CONTROL.delivered, seen, Math.min(left, 1000));
    }
  }

  private claim(index: number): boolean {
    return Atomics.compareExchange(this.ctrl, CONTROL.claimed, index, index + 1) === index;
  }

  private readHere(index: number): ReadAheadChunk {
    return readChunk(this.root, this.paths, index, CHUNK_SIZE, MAX_RECORD_BYTES, this.ring);
  }

  private drain(): void {
    if (!this.port) return;
    for (let m = receiveMessageOnPort(this.port); m; m = receiveMessageOnPort(this.port)) {
      const chunk = m.message as ReadAheadChunk;
      this.ready.set(chunk.index, chunk);
      this.posted.add(chunk.index);
    }
  }

  /** Stops the thread claiming: every chunk not claimed yet is read here. */
  private fail(state: number = STATE.failed): void {
    if (Atomics.load(this.ctrl, CONTROL.state) === STATE.running) Atomics.store(this.ctrl, CONTROL.state, state);
    Atomics.notify(this.ctrl, CONTROL.consumed);
    Atomics.notify(this.ctrl, CONTROL.delivered);
  }
}
