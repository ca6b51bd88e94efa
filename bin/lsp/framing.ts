/**
 * The base protocol's framing, checked before vscode-jsonrpc reads it. Its
 * reader trusts the `Content-Length` header: given `abc`, `-5` or none, it
 * reports an error and then waits forever for a frame it can never find, so
 * the editor's next request (even `shutdown`) is never answered.
 *
 * This stream passes well-framed messages through untouched. A frame whose
 * length header is missing or not a number is recovered when the stream
 * allows it: a JSON-RPC message is a JSON object, which ends where its
 * braces close, so its extent is known without the header; it is passed on
 * with a correct header (and the editor gets its answer) and one line goes
 * to stderr. When the bytes cannot be read as a message at all (garbage
 * where a header or a body should be), nothing further can be trusted: the
 * server says so in one line and exits non-zero, and the editor restarts it.
 */
import { Transform, type TransformCallback } from 'node:stream';

/** Headers longer than this are not headers: the stream is garbage. */
const MAX_HEADER_BYTES = 8 * 1024;
/** A message without a usable length is read up to this size; past it the stream is given up. */
const MAX_UNFRAMED_BYTES = 64 * 1024 * 1024;
const HEADER_END = Buffer.from('\r\n\r\n');

export interface FramingEvents {
  /** A frame was recovered (the message is passed on): one line for the log. */
  recovered(message: string): void;
  /** The stream cannot be read any further: one line; the caller ends the process. */
  fatal(message: string): void;
}

export class FrameGuard extends Transform {
  private buffer: Buffer = Buffer.alloc(0);
  /** The length of the body being waited for, once its header was read. */
  private bodyLength = -1;
  /** Why the body being waited for has no usable length ('' when it has one). */
  private unframedBecause = '';
  private failed = false;

  constructor(private readonly events: FramingEvents) {
    super();
  }

  /** Chunks of a long body not yet complete, kept apart so that each is copied once. */
  private waiting: Buffer[] = [];
  private waitingLength = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    if (this.failed) return done();
    if (this.bodyLength >= 0 && this.buffer.length + this.waitingLength + chunk.length < this.bodyLength) {
      this.waiting.push(chunk);
      this.waitingLength += chunk.length;
      return done();
    }
    this.buffer = Buffer.concat([this.buffer, ...this.waiting, chunk]);
    this.waiting = [];
    this.waitingLength = 0;
    this.drain();
    done();
  }

  /** Pass on every complete frame in the buffer. */
  private drain(): void {
    while (!this.failed) {
      if (this.bodyLength >= 0) {
        if (this.buffer.length < this.bodyLength) return;
        this.pass(this.buffer.subarray(0, this.bodyLength));
        this.buffer = this.buffer.subarray(this.bodyLength);
        this.bodyLength = -1;
        continue;
      }
      if (this.unframedBecause !== '') {
        if (!this.passUnframed()) return;
        continue;
      }
      // Blank lines between frames are harmless.
      let start = 0;
      while (start < this.buffer.length && (this.buffer[start] === 0x0d || this.buffer[start] === 0x0a)) start++;
      if (start > 0) this.buffer = this.buffer.subarray(start);
      if (this.buffer.length === 0) return;
      if (this.buffer[0] === 0x7b /* { */) {
        this.unframedBecause = 'had no header';
        continue;
      }
      const end = this.buffer.indexOf(HEADER_END);
      if (end === -1) {
        if (this.buffer.length > MAX_HEADER_BYTES) this.fail(`a header longer than ${MAX_HEADER_BYTES} bytes`);
        return;
      }
      const headers = this.buffer.subarray(0, end).toString('ascii');
      this.buffer = this.buffer.subarray(end + HEADER_END.length);
      const length = contentLength(headers);
      if (length.ok) this.bodyLength = length.value;
      else if (length.malformed) return this.fail(`a header that is not 'Name: value' (${JSON.stringify(headers.slice(0, 80))})`);
      else this.unframedBecause = length.problem;
    }
  }

  /** A body without a usable length: pass it on if it is one whole JSON object. False while more bytes are needed. */
  private passUnframed(): boolean {
    let start = 0;
    while (start < this.buffer.length && isJsonSpace(this.buffer[start]!)) start++;
    if (start === this.buffer.length) return false;
    if (this.buffer[start] !== 0x7b) {
      this.fail(`a message that ${this.unframedBecause} and is not a JSON object`);
      return false;
    }
    const end = jsonObjectEnd(this.buffer, start);
    if (end === -1) {
      if (this.buffer.length > MAX_UNFRAMED_BYTES) this.fail(`a message that ${this.unframedBecause} and does not end within ${MAX_UNFRAMED_BYTES} bytes`);
      return false;
    }
    this.events.recovered(`cantrip lsp: a message ${this.unframedBecause}; read it up to its closing brace (${end - start} bytes)`);
    this.pass(this.buffer.subarray(start, end));
    this.buffer = this.buffer.subarray(end);
    this.unframedBecause = '';
    return true;
  }

  private pass(body: Buffer): void {
    this.push(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]));
  }

  private fail(what: string): void {
    this.failed = true;
    this.buffer = Buffer.alloc(0);
    this.events.fatal(`cantrip lsp: unreadable input from the editor (${what}); exiting so that it restarts the server`);
  }
}

type LengthHeader = { ok: true; value: number } | { ok: false; malformed: boolean; problem: string };

/** The Content-Length of a header block, or why there is none. */
function contentLength(headers: string): LengthHeader {
  let value: string | null = null;
  for (const line of headers.split('\r\n')) {
    const header = /^([A-Za-z0-9-]+):(.*)$/.exec(line);
    if (header === null) return { ok: false, malformed: true, problem: '' };
    if (header[1]!.toLowerCase() === 'content-length') value = header[2]!.trim();
  }
  if (value === null) return { ok: false, malformed: false, problem: 'had no Content-Length header' };
  if (!/^\d{1,15}$/.test(value)) return { ok: false, malformed: false, problem: `had Content-Length '${value.slice(0, 40)}', not a length` };
  return { ok: true, value: Number(value) };
}

function isJsonSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}

/** Where the JSON object starting at `start` ends (one past its closing brace), or -1 if the buffer ends first. */
function jsonObjectEnd(bytes: Buffer, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (inString) {
      if (b === 0x5c /* \ */) i++;
      else if (b === 0x22 /* " */) inString = false;
    } else if (b === 0x22) inString = true;
    else if (b === 0x7b || b === 0x5b) depth++;
    else if (b === 0x7d || b === 0x5d) {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}
