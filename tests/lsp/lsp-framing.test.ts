/**
 * `cantrip lsp` given broken base-protocol frames on stdin, by a raw stdio
 * client (bytes in, frames out; needs `npm run build` first): a frame whose
 * length header is missing or not a number is still answered when its body
 * is a whole JSON object; bytes that cannot be a message end the server with
 * one line on stderr and a non-zero exit. Never a server that stays alive
 * and deaf.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO } from './lsp-client.js';

/** A server on raw pipes: what it answered (by id), its stderr and its exit code. */
class RawServer {
  readonly child: ChildProcessWithoutNullStreams;
  private output = Buffer.alloc(0);
  private readonly answers = new Map<number, unknown>();
  private readonly waiting = new Map<number, (answer: unknown) => void>();
  stderr = '';
  readonly exit: Promise<number>;

  constructor() {
    this.child = spawn(process.execPath, [join(REPO, 'bin', 'cantrip.js'), 'lsp', '--stdio'], { cwd: REPO, stdio: 'pipe' });
    this.child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.child.stdout.on('data', (chunk: Buffer) => this.read(chunk));
    this.exit = new Promise((resolve) => this.child.on('exit', (code) => resolve(code ?? -1)));
  }

  write(bytes: string): void {
    this.child.stdin.write(bytes);
  }

  /** A well-framed request. */
  request(id: number, method: string, params: unknown = null): void {
    const body = JSON.stringify({ jsonrpc: '2.0', id, method, params });
    this.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  }

  /** The response to request `id` (the test's timeout fails it if none comes). */
  answer(id: number): Promise<unknown> {
    if (this.answers.has(id)) return Promise.resolve(this.answers.get(id));
    return new Promise((resolve) => this.waiting.set(id, resolve));
  }

  /** Shut down as an editor does; resolves with the exit code. */
  async stop(): Promise<number> {
    this.request(9000, 'shutdown');
    await this.answer(9000);
    this.write(frame(JSON.stringify({ jsonrpc: '2.0', method: 'exit' })));
    return this.exit;
  }

  private read(chunk: Buffer): void {
    this.output = Buffer.concat([this.output, chunk]);
    for (;;) {
      const end = this.output.indexOf('\r\n\r\n');
      if (end === -1) return;
      const length = Number(/Content-Length: (\d+)/i.exec(this.output.subarray(0, end).toString())![1]);
      if (this.output.length < end + 4 + length) return;
      const message = JSON.parse(this.output.subarray(end + 4, end + 4 + length).toString()) as { id?: number };
      this.output = this.output.subarray(end + 4 + length);
      if (typeof message.id === 'number' && !('method' in message)) {
        this.answers.set(message.id, message);
        this.waiting.get(message.id)?.(message);
      }
    }
  }
}

const frame = (body: string) => `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
const symbolRequest = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'workspace/symbol', params: { query: 'x' } });

let server: RawServer | null = null;
afterEach(() => {
  if (server && server.child.exitCode === null) server.child.kill();
  server = null;
});

async function initialized(): Promise<RawServer> {
  const s = (server = new RawServer());
  s.request(1, 'initialize', { processId: null, rootUri: null, capabilities: {} });
  await s.answer(1);
  s.write(frame(JSON.stringify({ jsonrpc: '2.0', method: 'initialized', params: {} })));
  return s;
}

describe('cantrip lsp reads broken frames without going deaf', () => {
  const recoverable: [string, (body: string) => string, RegExp][] = [
    ['Content-Length: abc', (body) => `Content-Length: abc\r\n\r\n${body}`, /Content-Length 'abc', not a length/],
    ['Content-Length: -5', (body) => `Content-Length: -5\r\n\r\n${body}`, /Content-Length '-5', not a length/],
    ['no header at all', (body) => body, /had no header/],
    ['headers without Content-Length', (body) => `Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n${body}`, /had no Content-Length header/],
  ];
  for (const [name, broken, logged] of recoverable) {
    it(`answers a message sent with ${name}, then the next ones, then shuts down cleanly`, async () => {
      const s = await initialized();
      s.write(broken(symbolRequest(2)));
      expect(await s.answer(2)).toMatchObject({ id: 2, result: [] });
      s.write(frame(symbolRequest(3)));
      expect(await s.answer(3)).toMatchObject({ id: 3, result: [] });
      expect(s.stderr.trim().split('\n')).toHaveLength(1);
      expect(s.stderr).toMatch(logged);
      expect(await s.stop()).toBe(0);
    });
  }

  const unreadable: [string, string, RegExp][] = [
    ['a bad length before a body that is not JSON', 'Content-Length: abc\r\n\r\nhello there\r\n', /Content-Length 'abc', not a length.*not a JSON object/],
    ['a header line that is not a header', 'hello there\r\n\r\n', /not 'Name: value'/],
    ['a length that was wrong (the next frame starts mid-body)', `Content-Length: 3\r\n\r\n${symbolRequest(2)}`, /not 'Name: value'/],
  ];
  for (const [name, bytes, logged] of unreadable) {
    it(`exits non-zero with one line on stderr after ${name}`, async () => {
      const s = await initialized();
      s.write(bytes);
      if (name.startsWith('a length')) s.write(frame(symbolRequest(3)));
      expect(await s.exit).toBe(1);
      expect(s.stderr.trim().split('\n')).toHaveLength(1);
      expect(s.stderr).toMatch(logged);
      expect(s.stderr).toMatch(/exiting so that it restarts the server/);
    });
  }
});
