/**
 * Strict UTF-8 validation that says *where* a file stops being text.
 * TextDecoder's `fatal` mode only says that it does, and a user with a
 * corrupted file wants the byte offset.
 */

/** The offset of the first byte that is not part of a well-formed UTF-8 sequence, or -1. */
export function findInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  const n = bytes.length;
  while (i < n) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    const length = sequenceLength(b);
    if (length === 0 || i + length > n) return i;
    const second = bytes[i + 1]!;
    if (!secondByteAllowed(b, second)) return i;
    for (let k = 2; k < length; k++) {
      if ((bytes[i + k]! & 0xc0) !== 0x80) return i;
    }
    i += length;
  }
  return -1;
}

function sequenceLength(lead: number): number {
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0; // continuation byte, overlong lead (C0, C1) or beyond U+10FFFF
}

/** The second byte's range rules out overlong forms, surrogates and code points past U+10FFFF (RFC 3629). */
function secondByteAllowed(lead: number, second: number): boolean {
  if (lead === 0xe0) return second >= 0xa0 && second <= 0xbf;
  if (lead === 0xed) return second >= 0x80 && second <= 0x9f;
  if (lead === 0xf0) return second >= 0x90 && second <= 0xbf;
  if (lead === 0xf4) return second >= 0x80 && second <= 0x8f;
  return (second & 0xc0) === 0x80;
}

/** 1-based line of a byte offset, for messages. */
export function lineAtByte(bytes: Uint8Array, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < bytes.length; i++) if (bytes[i] === 0x0a) line++;
  return line;
}
