/**
 * Everything the CLI does to the outside world goes through this interface,
 * so tests run `main` in-process with captured output and a fake file system.
 */
import * as fs from 'node:fs';

export interface CliIO {
  /** Write text to standard output, exactly as given (callers add newlines). */
  stdout(text: string): void;
  /** Write text to standard error, exactly as given. */
  stderr(text: string): void;
  /** Read at most `limit` bytes; may return more only if the file is bigger (then the caller refuses it). Defaults to node:fs. */
  readFile?(path: string, limit: number): Uint8Array;
  /** Write a whole file. Defaults to node:fs. */
  writeFile?(path: string, data: Uint8Array): void;
}

/** Reads up to `limit + 1` bytes so an oversized file is detected without reading all of it (or /dev/zero forever). */
export function readFileBounded(path: string, limit: number): Uint8Array {
  const fd = fs.openSync(path, 'r');
  try {
    if (fs.fstatSync(fd).isDirectory()) {
      throw Object.assign(new Error(`EISDIR: illegal operation on a directory, read`), { code: 'EISDIR' });
    }
    const chunks: Buffer[] = [];
    let total = 0;
    const chunkSize = 1 << 20;
    while (total <= limit) {
      const chunk = Buffer.allocUnsafe(Math.min(chunkSize, limit + 1 - total));
      const n = fs.readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      chunks.push(n === chunk.length ? chunk : chunk.subarray(0, n));
      total += n;
    }
    return new Uint8Array(Buffer.concat(chunks, total));
  } finally {
    fs.closeSync(fd);
  }
}

export function writeFileWhole(path: string, data: Uint8Array): void {
  fs.writeFileSync(path, data);
}
