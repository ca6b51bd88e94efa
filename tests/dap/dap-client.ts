/**
 * A plain Debug Adapter Protocol client for the tests and the benchmark:
 * spawns `node bin/cantrip.js dap` (the built CLI, as an editor starts it)
 * and speaks Content-Length-framed JSON to it — no DAP library, so the
 * adapter is checked against the wire format itself.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { REPO } from '../lsp/lsp-client.js';
import { join } from 'node:path';

export { REPO };

export interface DapMessage {
  readonly seq: number;
  readonly type: 'request' | 'response' | 'event';
  readonly command?: string;
  readonly event?: string;
  readonly request_seq?: number;
  readonly success?: boolean;
  readonly message?: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly body?: any;
}

/** How long a test waits for one message before failing with what the adapter said (long: the machine may be loaded). */
const WAIT_MS = 30_000;

export class DapClient {
  private readonly child: ChildProcessWithoutNullStreams;
  private buffer = Buffer.alloc(0);
  private seq = 1;
  /** Every message received, in order. */
  readonly received: DapMessage[] = [];
  /** Who waits for which message; a waiter that `takes` gets it alone, the others only look. */
  private readonly waiters: { match: (m: DapMessage) => boolean; resolve: (m: DapMessage) => void; takes: boolean }[] = [];
  stderr = '';
  readonly exit: Promise<number>;

  /** `launch`: how to start the adapter (default: `node bin/cantrip.js dap`). */
  constructor(cwd = REPO, launch: { command: string; args: readonly string[]; env?: Readonly<Record<string, string>> } = { command: process.execPath, args: [join(REPO, 'bin', 'cantrip.js'), 'dap'] }) {
    this.child = spawn(launch.command, [...launch.args], { cwd, stdio: 'pipe', env: { ...process.env, ...launch.env } });
    this.child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.child.stdout.on('data', (chunk: Buffer) => this.read(chunk));
    this.exit = new Promise((resolve) => this.child.on('exit', (code) => resolve(code ?? -1)));
  }

  /** The adapter's process id (the benchmark reads its CPU time). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Send a request; resolves with its response (failed ones too: check `success`). */
  request(command: string, args?: unknown): Promise<DapMessage> {
    const seq = this.seq++;
    this.send({ seq, type: 'request', command, ...(args === undefined ? {} : { arguments: args }) });
    return this.next((m) => m.type === 'response' && m.request_seq === seq, `the response to ${command}`);
  }

  /** Send raw bytes (a broken frame, for tests of the framing). */
  sendRaw(bytes: string): void {
    this.child.stdin.write(bytes);
  }

  /** The next event of this name, from those already received but not yet taken, or those to come. */
  event(name: string): Promise<DapMessage> {
    return this.next((m) => m.type === 'event' && m.event === name, `the '${name}' event`);
  }

  /** Every output event's text so far, of a category (all when none is given). */
  output(category?: string): string {
    return this.received
      .filter((m) => m.event === 'output' && (category === undefined || m.body.category === category))
      .map((m) => m.body.output as string)
      .join('');
  }

  /** initialize → launch → (breakpoints) → configurationDone, as an editor does. */
  async launch(args: Record<string, unknown>, breakpoints: Record<string, number[]> = {}): Promise<DapMessage> {
    const init = await this.request('initialize', { adapterID: 'cantrip', clientID: 'tests', linesStartAt1: true, columnsStartAt1: true, pathFormat: 'path' });
    if (!init.success) throw new Error(`initialize failed: ${init.message}`);
    const launched = this.request('launch', args);
    // A launch that fails answers with an error and no `initialized` event; a program that does not compile is
    // launched and exits at once (no `initialized` either); otherwise `initialized` comes, before or after the answer.
    const failed = launched.then((r) => (r.success ? new Promise<never>(() => {}) : r));
    const ready = await Promise.race([this.next((m) => m.event === 'initialized' || m.event === 'exited', 'initialized or exited', false), failed]);
    if (ready.type === 'response' || ready.event === 'exited') return launched;
    for (const [path, lines] of Object.entries(breakpoints)) {
      await this.request('setBreakpoints', { source: { path }, breakpoints: lines.map((line) => ({ line })) });
    }
    await this.request('configurationDone');
    return launched;
  }

  /** The top frame of the stopped thread. */
  async topFrame(): Promise<{ id: number; name: string; line: number; source: { path: string } }> {
    const trace = await this.request('stackTrace', { threadId: 1 });
    return trace.body.stackFrames[0];
  }

  /** A frame's scope by name ('Locals', 'Captured', 'Globals'), as name → value text. */
  async scope(frameId: number, name: string): Promise<Map<string, { value: string; variablesReference: number }>> {
    const scopes = await this.request('scopes', { frameId });
    const scope = scopes.body.scopes.find((s: { name: string }) => s.name === name);
    if (scope === undefined) return new Map();
    return this.children(scope.variablesReference);
  }

  async children(variablesReference: number): Promise<Map<string, { value: string; variablesReference: number }>> {
    const variables = await this.request('variables', { variablesReference });
    return new Map(variables.body.variables.map((v: { name: string; value: string; variablesReference: number }) => [v.name, v]));
  }

  async close(): Promise<number> {
    if (!this.child.killed && this.child.exitCode === null) {
      await Promise.race([this.request('disconnect', { terminateDebuggee: true }), this.exit]);
    }
    return this.exit;
  }

  kill(): void {
    this.child.kill();
  }

  private send(message: object): void {
    const json = JSON.stringify(message);
    this.child.stdin.write(`Content-Length: ${Buffer.byteLength(json, 'utf8')}\r\n\r\n${json}`);
  }

  private read(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const headerEnd = this.buffer.indexOf('\r\n\r\n');
      if (headerEnd < 0) return;
      const length = /Content-Length: (\d+)/i.exec(this.buffer.subarray(0, headerEnd).toString('ascii'));
      if (length === null) throw new Error(`a frame without Content-Length: ${this.buffer.subarray(0, headerEnd).toString()}`);
      const start = headerEnd + 4;
      const end = start + Number(length[1]);
      if (this.buffer.length < end) return;
      const message = JSON.parse(this.buffer.subarray(start, end).toString('utf8')) as DapMessage;
      this.buffer = this.buffer.subarray(end);
      this.received.push(message);
      for (const looker of this.waiters.filter((w) => !w.takes && w.match(message))) {
        this.waiters.splice(this.waiters.indexOf(looker), 1);
        looker.resolve(message);
      }
      const taker = this.waiters.find((w) => w.takes && w.match(message));
      if (taker !== undefined) {
        this.waiters.splice(this.waiters.indexOf(taker), 1);
        this.taken.add(message);
        taker.resolve(message);
      }
    }
  }

  /** Messages already handed to a waiter (an event is taken once). */
  private readonly taken = new Set<DapMessage>();

  /** The next message that matches (one already received and not taken, or one to come); `takes` false leaves it for others. */
  private next(match: (m: DapMessage) => boolean, what: string, takes = true): Promise<DapMessage> {
    const already = this.received.find((m) => !this.taken.has(m) && match(m));
    if (already !== undefined) {
      if (takes) this.taken.add(already);
      return Promise.resolve(already);
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${what} within ${WAIT_MS} ms; adapter stderr: ${this.stderr}; received: ${JSON.stringify(this.received.slice(-5))}`)), WAIT_MS);
      this.waiters.push({
        match,
        takes,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
    });
  }
}
