/** Small temporary archive folders under os.tmpdir(), removed after the test file. A root is `<tmp>/echo-archive-test-XXXX/archive`. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll } from 'vitest';

export type FileContent = string | Uint8Array | Record<string, unknown> | unknown[];

/** Registers cleanup for the calling test file and returns a factory of temporary archive roots. */
export function tempArchives(): (files: Record<string, FileContent>) => string {
  const bases: string[] = [];
  afterAll(() => {
    for (const b of bases) rmSync(b, { recursive: true, force: true });
  });
  return (files) => {
    // the root sits one level down, so that tests may also write files "outside the root" in a private place
    const base = mkdtempSync(join(tmpdir(), 'echo-archive-test-'));
    bases.push(base);
    const root = join(base, 'archive');
    mkdirSync(root);
    writeFiles(root, files);
    return root;
  };
}

export function writeFiles(root: string, files: Record<string, FileContent>): void {
  for (const [path, content] of Object.entries(files)) {
    const abs = join(root, path);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(
      abs,
      typeof content === 'string' || content instanceof Uint8Array ? content : JSON.stringify(content, null, 2) + '\n',
    );
  }
}
