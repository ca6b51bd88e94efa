/**
 * A real language-server client for tests and the benchmark: spawns
 * `node bin/cantrip.js lsp --stdio` (the built CLI, as an editor starts it)
 * and talks JSON-RPC to it with vscode-jsonrpc.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';

/** The repository root, found by walking up (this file also runs compiled, from dist/). */
export const REPO = (() => {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'bin', 'cantrip.js')) || !existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cannot find bin/cantrip.js above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
  return dir;
})();
const LAUNCHER = join(REPO, 'bin', 'cantrip.js');

export interface PublishedDiagnostics {
  readonly uri: string;
  readonly version?: number;
  readonly diagnostics: { range: { start: { line: number; character: number }; end: { line: number; character: number } }; severity: number; message: string; data?: unknown }[];
}

/** A server process to start: its program, arguments and extra environment. */
export interface ServerProcess {
  readonly command: string;
  readonly args: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
}

export class LspClient {
  readonly connection: MessageConnection;
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly published = new Map<string, PublishedDiagnostics>();
  private readonly waiters: { uri: string; version: number | undefined; resolve: (d: PublishedDiagnostics) => void; reject: (e: Error) => void }[] = [];
  /** Everything the server wrote to stderr. */
  stderr = '';
  exited: number | null = null;
  /** Resolves with the exit code when the server process ends. */
  readonly exit: Promise<number>;
  /** What the server registered with `client/registerCapability`, newest last. */
  readonly registrations: { id: string; method: string; registerOptions?: unknown }[] = [];
  /** Every `window/showMessage` the server sent. */
  readonly messages: { type: number; message: string }[] = [];

  /** `launch`: how to start the server (default: `node bin/cantrip.js lsp --stdio`). */
  constructor(cwd = REPO, launch: ServerProcess = { command: process.execPath, args: [LAUNCHER, 'lsp', '--stdio'] }) {
    this.child = spawn(launch.command, [...launch.args], { cwd, stdio: 'pipe', env: { ...process.env, ...launch.env } });
    this.child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    let exited!: (code: number) => void;
    this.exit = new Promise((resolve) => (exited = resolve));
    this.child.on('exit', (code) => {
      this.exited = code ?? -1;
      exited(this.exited);
      for (const w of this.waiters.splice(0)) w.reject(new Error(`the language server exited (${this.exited}): ${this.stderr}`));
    });
    this.connection = createMessageConnection(new StreamMessageReader(this.child.stdout), new StreamMessageWriter(this.child.stdin));
    this.connection.onNotification('textDocument/publishDiagnostics', (p: PublishedDiagnostics) => {
      this.published.set(p.uri, p);
      for (const w of [...this.waiters]) {
        if (w.uri === p.uri && (w.version === undefined || p.version === w.version)) {
          this.waiters.splice(this.waiters.indexOf(w), 1);
          w.resolve(p);
        }
      }
    });
    this.connection.onRequest('client/registerCapability', (p: { registrations: { id: string; method: string; registerOptions?: unknown }[] }) => {
      this.registrations.push(...p.registrations);
      return null;
    });
    this.connection.onRequest('client/unregisterCapability', () => null);
    this.connection.onNotification('window/showMessage', (p: { type: number; message: string }) => void this.messages.push(p));
    this.connection.listen();
  }

  /** `capabilities`: the client capabilities to declare (none by default). */
  async initialize(rootUri: string | null = null, capabilities: Record<string, unknown> = {}, initializationOptions?: unknown): Promise<{ capabilities: Record<string, unknown> }> {
    const result = await this.connection.sendRequest<{ capabilities: Record<string, unknown> }>('initialize', {
      processId: process.pid,
      rootUri,
      workspaceFolders: rootUri ? [{ uri: rootUri, name: 'root' }] : null,
      capabilities,
      initializationOptions,
    });
    await this.connection.sendNotification('initialized', {});
    return result;
  }

  /** The next diagnostics published for `uri` (for that version, when given). */
  diagnostics(uri: string, version?: number): Promise<PublishedDiagnostics> {
    const have = this.published.get(uri);
    if (have && version !== undefined && have.version === version) return Promise.resolve(have);
    if (this.exited !== null) return Promise.reject(new Error(`the language server exited (${this.exited}): ${this.stderr}`));
    return new Promise((resolve, reject) => this.waiters.push({ uri, version, resolve, reject }));
  }

  /** The diagnostics last published for `uri`. */
  lastPublished(uri: string): PublishedDiagnostics | undefined {
    return this.published.get(uri);
  }

  async open(uri: string, text: string, version = 1): Promise<PublishedDiagnostics> {
    const published = this.diagnostics(uri, version);
    await this.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'cantrip', version, text } });
    return published;
  }

  /** Replace the whole text; resolves with the diagnostics of the new version. */
  async change(uri: string, version: number, changes: unknown[]): Promise<PublishedDiagnostics> {
    const published = this.diagnostics(uri, version);
    await this.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: changes });
    return published;
  }

  request<T>(method: string, params: unknown): Promise<T> {
    return this.connection.sendRequest<T>(method, params);
  }

  async stop(): Promise<void> {
    try {
      await Promise.race([this.connection.sendRequest('shutdown'), new Promise((r) => setTimeout(r, 2000))]);
      await this.connection.sendNotification('exit');
    } catch {
      // already gone
    }
    this.connection.dispose();
    if (this.exited === null) this.child.kill();
  }

  /** The server process's resident memory, in MB (Linux: /proc). */
  rssMegabytes(): number {
    const status = readFileSync(`/proc/${this.child.pid}/status`, 'utf8');
    return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)![1]) / 1024;
  }

  /** The CPU time the server process has used so far, in ms (Linux: /proc; clock ticks of 10 ms): a figure a shared machine disturbs far less than wall time. */
  cpuMilliseconds(): number {
    const stat = readFileSync(`/proc/${this.child.pid}/stat`, 'utf8');
    // The fields after the command name (which may hold spaces, in parentheses): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  }

  /** Write raw bytes to the server's input (hostile framing, invalid UTF-8). */
  writeRaw(bytes: Uint8Array): void {
    this.child.stdin.write(bytes);
  }
}
