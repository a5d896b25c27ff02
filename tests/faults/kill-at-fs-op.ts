/**
 * A preload (`node --import THIS`) for the killed-mid-write trials: it counts the calls that change files (write,
 * rename, link, unlink, truncate, mkdir, …; sync and promise forms) and, at the FAULT_KILL_AT-th one, sends the
 * process SIGKILL, a real kill at a chosen point of a real command. A write chosen as the point is torn first: a
 * seeded part of its bytes reaches the file, then the kill (a process killed inside write(2)). Without
 * FAULT_KILL_AT it only counts, and writes the count to FAULT_COUNT_FILE at exit (to draw points from).
 * Patching node:fs and calling syncBuiltinESMExports makes the named ESM imports (`import { writeSync } from
 * 'node:fs'`) see the patched functions too.
 */
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

const killAt = Number(process.env.FAULT_KILL_AT ?? 0);
const countFile = process.env.FAULT_COUNT_FILE;
let seed = Number(process.env.FAULT_SEED ?? 1) >>> 0;
const rand = () => ((seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0) / 2 ** 32);
let count = 0;

function point(torn?: () => void): void {
  count++;
  if (killAt > 0 && count === killAt) {
    torn?.();
    process.kill(process.pid, 'SIGKILL');
  }
}

const SYNC = ['renameSync', 'linkSync', 'unlinkSync', 'rmSync', 'truncateSync', 'ftruncateSync', 'mkdirSync', 'copyFileSync', 'fsyncSync'] as const;
const f = fs as unknown as Record<string, (...args: unknown[]) => unknown>;
for (const name of SYNC) {
  const orig = f[name]!;
  f[name] = function (this: unknown, ...args: unknown[]) {
    point();
    return orig.apply(this, args);
  };
}
// Writes: torn at the kill point (part of the bytes, then the kill).
const bytesOf = (data: unknown): Buffer | undefined =>
  typeof data === 'string' ? Buffer.from(data) : data instanceof Uint8Array ? Buffer.from(data.buffer, data.byteOffset, data.byteLength) : undefined;
for (const name of ['writeFileSync', 'appendFileSync'] as const) {
  const orig = f[name]!;
  f[name] = function (this: unknown, file: unknown, data: unknown, options?: unknown) {
    point(() => {
      const b = bytesOf(data);
      if (b && b.length > 1) orig.call(this, file, b.subarray(0, Math.floor(rand() * b.length)), options);
    });
    return orig.call(this, file, data, options);
  };
}
const writeSync = f.writeSync!;
f.writeSync = function (this: unknown, fd: unknown, data: unknown, ...rest: unknown[]) {
  point(() => {
    const b = bytesOf(data);
    if (b && b.length > 1 && typeof rest[0] !== 'string') {
      const off = typeof rest[0] === 'number' ? rest[0] : 0;
      const len = typeof rest[1] === 'number' ? rest[1] : b.length - off;
      writeSync.call(this, fd, b, off, Math.floor(rand() * len));
    }
  });
  return writeSync.call(this, fd, data, ...rest);
};
const p = fs.promises as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
for (const name of ['writeFile', 'appendFile', 'rename', 'unlink', 'rm', 'mkdir', 'copyFile', 'truncate', 'link']) {
  const orig = p[name]!;
  p[name] = async function (this: unknown, ...args: unknown[]) {
    if (name === 'writeFile' || name === 'appendFile') {
      point(() => {
        const b = bytesOf(args[1]);
        if (b && b.length > 1) fs.writeFileSync(args[0] as string, b.subarray(0, Math.floor(rand() * b.length)));
      });
    } else point();
    return orig.apply(this, args);
  };
}
syncBuiltinESMExports();

if (countFile) process.on('exit', () => fs.writeFileSync.call(null, countFile, String(count)));
