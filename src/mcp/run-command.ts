/**
 * A builder command run for an MCP tool: the command's own code (src/builder/commands/), with its output captured
 * (src/builder/cli.ts captureOutput) instead of written to the process's streams, and its errors caught and worded
 * as the CLI words them (src/builder/main.ts). Files the command reads or writes live in a temporary folder that is
 * removed when it returns. Tools never re-implement readback, monitor, doctor, preflight, submit or receipt.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { captureOutput, EXIT_ERROR, EXIT_NO, EXIT_OK, PROGRAM, UsageError, type CommandSpec, type ParsedValues } from '../builder/cli.ts';
import { NetworkError } from '../builder/net.ts';

export interface CommandRun {
  /** 0 yes, 1 no, 2 usage, input/output, network or internal error (the builder's exit statuses). */
  exit: number;
  /** What the command printed on standard output. */
  stdout: string;
  /** Its messages (standard error): the plain-words diagnostics. */
  stderr: string;
  /** Files the command wrote into the temporary folder, read back (name → text), for the names asked for. */
  files: Record<string, string | undefined>;
}

/** Where a command's input files go: a fresh temporary folder, removed after the run. */
export interface Workspace {
  /** Writes `text` as `name` in the folder; returns its path. */
  file(name: string, text: string | Uint8Array): string;
  /** The path `name` would have (for outputs). */
  path(name: string): string;
}

/**
 * Runs `spec` with the options `values(workspace)` returns. Never throws for what the CLI reports in words (usage,
 * network, input/output errors): those come back as exit 2 with the CLI's message.
 */
export async function runCommand(spec: CommandSpec, values: (w: Workspace) => ParsedValues, readBack: readonly string[] = []): Promise<CommandRun> {
  const dir = mkdtempSync(join(tmpdir(), 'echo-archive-mcp-'));
  const stdout: string[] = [];
  const stderr: string[] = [];
  try {
    const workspace: Workspace = {
      file(name, text) {
        const path = join(dir, name);
        writeFileSync(path, text, { mode: 0o600 });
        return path;
      },
      path: (name) => join(dir, name),
    };
    let exit: number;
    try {
      exit = await captureOutput({ out: (t) => stdout.push(t), info: (t) => stderr.push(t) }, () => spec.run(values(workspace)));
    } catch (err) {
      exit = EXIT_ERROR;
      if (err instanceof UsageError || err instanceof NetworkError) stderr.push(`${PROGRAM} ${spec.name}: ${err.message}\n`);
      else stderr.push(`${PROGRAM} ${spec.name}: internal error: ${(err as Error)?.message ?? String(err)}\n`);
    }
    const files: Record<string, string | undefined> = {};
    for (const name of readBack) {
      try {
        files[name] = readFileSync(join(dir, name), 'utf8');
      } catch {
        files[name] = undefined;
      }
    }
    return { exit, stdout: stdout.join(''), stderr: stderr.join(''), files };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The exit status in words, for structured answers. */
export function outcomeOf(exit: number): 'yes' | 'no' | 'error' {
  return exit === EXIT_OK ? 'yes' : exit === EXIT_NO ? 'no' : 'error';
}

/** The command's words with a temporary folder's paths shown as bare file names. */
export function withoutTempPaths(text: string): string {
  return text.replace(new RegExp(`${escapeRegExp(tmpdir())}/echo-archive-mcp-[^/\\s]+/`, 'g'), '');
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
