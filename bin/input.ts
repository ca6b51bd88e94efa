/**
 * Reading a spell file from disk: every way a path can be wrong becomes one
 * clean CliFailure with the right exit code, and the bytes are classified as
 * source text or compiled bytecode by their magic number, not their name
 * (a file named .spb without the magic number is refused as bad bytecode).
 */
import { CliFailure, EXIT } from './exit-codes.js';
import { readFileBounded, type CliIO } from './io.js';
import { findInvalidUtf8, lineAtByte } from './utf8.js';
import { looksLikeSpb } from '../vm/spb.js';

/** Files up to this size are accepted; anything bigger is refused before it is read in full. */
export const MAX_INPUT_BYTES = 10 * 1024 * 1024;

export type SpellInput =
  | { readonly kind: 'source'; readonly path: string; readonly text: string }
  | { readonly kind: 'bytecode'; readonly path: string; readonly bytes: Uint8Array };

export function readInputBytes(path: string, io: CliIO): Uint8Array {
  let bytes: Uint8Array;
  try {
    bytes = (io.readFile ?? readFileBounded)(path, MAX_INPUT_BYTES);
  } catch (error) {
    throw new CliFailure(`cantrip: cannot read '${path}': ${describeFsError(error)}`, EXIT.noInput);
  }
  if (bytes.length > MAX_INPUT_BYTES) {
    throw new CliFailure(
      `cantrip: cannot read '${path}': the file is larger than the ${MAX_INPUT_BYTES / (1024 * 1024)} MB limit`,
      EXIT.noInput,
    );
  }
  return bytes;
}

/** Reads a file and decides whether it is bytecode or source text. */
export function readSpellInput(path: string, io: CliIO): SpellInput {
  const bytes = readInputBytes(path, io);
  if (looksLikeSpb(bytes)) return { kind: 'bytecode', path, bytes };
  // Named as bytecode but not bytecode: say so, rather than report the bytes as a spell's syntax errors.
  if (path.endsWith('.spb')) {
    throw new CliFailure(
      `cantrip: ${path} is not Cantrip bytecode: it does not start with the .spb header (a .spb file is what \`cantrip compile\` writes)`,
      EXIT.dataError,
    );
  }
  return { kind: 'source', path, text: decodeSourceText(path, bytes) };
}

/** Source must be UTF-8 text without NUL bytes; a leading byte-order mark is dropped. */
export function decodeSourceText(path: string, bytes: Uint8Array): string {
  const invalid = findInvalidUtf8(bytes);
  if (invalid >= 0) throw notText(path, bytes, invalid, 'invalid UTF-8');
  const nul = bytes.indexOf(0);
  if (nul >= 0) throw notText(path, bytes, nul, 'NUL byte');
  const text = new TextDecoder('utf-8').decode(bytes);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function notText(path: string, bytes: Uint8Array, offset: number, what: string): CliFailure {
  return new CliFailure(
    `cantrip: ${path} is not a text file (${what} at byte ${offset}, line ${lineAtByte(bytes, offset)})`,
    EXIT.dataError,
  );
}

const FS_ERROR_TEXT: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EISDIR: 'it is a directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENOTDIR: 'a part of the path is not a directory',
  ENAMETOOLONG: 'the path is too long',
  ELOOP: 'too many symbolic links',
  EMFILE: 'too many open files',
  EIO: 'input/output error',
};

export function describeFsError(error: unknown): string {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  if (code in FS_ERROR_TEXT) return FS_ERROR_TEXT[code]!;
  return error instanceof Error ? error.message : String(error);
}
