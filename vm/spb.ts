/**
 * The `.spb` binary format: a compiled Module on disk.
 *
 * Layout (documented byte by byte in docs/bytecode.md):
 *   magic "CNTP" 0x1A 0x0A · format version u16 LE · sections until the end of the file.
 *   section = tag u8 · byte length u32 LE · payload.
 * Integers inside payloads are LEB128 varints; numbers are f64 LE; strings are
 * a varint byte length then UTF-8. Every section carries its own length so a
 * reader can bounds-check it and skip tags it does not know.
 *
 * The reader treats its input as hostile: every count is capped by the bytes
 * left, every read is bounds-checked, and the only exception it lets out is a
 * VerifyError with a message a person can act on. It checks the *shape* of the
 * file; whether the code is safe to run is vm/verifier.ts's job.
 */

import { VerifyError } from './errors.js';
import type {
  FunctionKind,
  FunctionProto,
  HostImport,
  LocalVariableInfo,
  Module,
  SpellEntry,
  UpvalueDescriptor,
} from './module.js';

/** "CNTP", then 0x1A (stops DOS `type`) and 0x0A (detects newline mangling), as PNG does. */
export const SPB_MAGIC: readonly number[] = [0x43, 0x4e, 0x54, 0x50, 0x1a, 0x0a];
export const SPB_VERSION = 1;
const HEADER_SIZE = SPB_MAGIC.length + 2;

/** Section tags. Order in the file is free; each known tag may appear once. */
export const SECTION_TAGS = {
  source: 1,
  constants: 2,
  globals: 3,
  hostImports: 4,
  functions: 5,
  spells: 6,
  locals: 7,
} as const;
type SectionName = keyof typeof SECTION_TAGS;

/** Function kinds by their byte in the file. */
export const FUNCTION_KIND_CODES: readonly FunctionKind[] = ['script', 'function', 'method', 'initializer', 'spell'];

const CONSTANT_NUMBER = 0;
const CONSTANT_STRING = 1;

// ---------------------------------------------------------------------------
// Writing
// ---------------------------------------------------------------------------

/** A growable little-endian byte buffer. */
class ByteWriter {
  private bytes = new Uint8Array(256);
  private view = new DataView(this.bytes.buffer);
  length = 0;

  private reserve(extra: number): void {
    if (this.length + extra <= this.bytes.length) return;
    let size = this.bytes.length * 2;
    while (size < this.length + extra) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
    this.view = new DataView(grown.buffer);
  }

  u8(value: number): void {
    this.reserve(1);
    this.bytes[this.length++] = value & 0xff;
  }

  u16(value: number): void {
    this.reserve(2);
    this.view.setUint16(this.length, value, true);
    this.length += 2;
  }

  u32(value: number): void {
    this.reserve(4);
    this.view.setUint32(this.length, value >>> 0, true);
    this.length += 4;
  }

  f64(value: number): void {
    this.reserve(8);
    this.view.setFloat64(this.length, value, true);
    this.length += 8;
  }

  /** Unsigned LEB128 of a value in [0, 2^32). */
  varuint(value: number): void {
    if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) {
      throw new VerifyError(`Cannot encode ${value} as an unsigned 32-bit integer.`);
    }
    let v = value;
    while (v >= 0x80) {
      this.u8((v & 0x7f) | 0x80);
      v = Math.floor(v / 128);
    }
    this.u8(v);
  }

  /** Zigzag-encoded signed 32-bit integer: small magnitudes stay one byte. */
  varint(value: number): void {
    this.varuint(((value << 1) ^ (value >> 31)) >>> 0);
  }

  string(text: string): void {
    const encoded = utf8Encoder.encode(text);
    this.varuint(encoded.length);
    this.raw(encoded);
  }

  raw(data: Uint8Array): void {
    this.reserve(data.length);
    this.bytes.set(data, this.length);
    this.length += data.length;
  }

  finish(): Uint8Array {
    return this.bytes.slice(0, this.length);
  }
}

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder('utf-8', { fatal: true });

function writeSection(out: ByteWriter, name: SectionName, fill: (w: ByteWriter) => void): void {
  const payload = new ByteWriter();
  fill(payload);
  out.u8(SECTION_TAGS[name]);
  out.u32(payload.length);
  out.raw(payload.finish());
}

function writeConstants(w: ByteWriter, constants: Module['constants']): void {
  w.varuint(constants.length);
  for (const c of constants) {
    if (typeof c === 'number') {
      w.u8(CONSTANT_NUMBER);
      w.f64(c);
    } else {
      w.u8(CONSTANT_STRING);
      w.string(c);
    }
  }
}

function writeStrings(w: ByteWriter, strings: readonly string[]): void {
  w.varuint(strings.length);
  for (const s of strings) w.string(s);
}

function writeHostImports(w: ByteWriter, imports: readonly HostImport[]): void {
  w.varuint(imports.length);
  for (const imp of imports) {
    w.string(imp.name);
    w.varuint(imp.arities.length);
    for (const a of imp.arities) w.varuint(a);
  }
}

function writeSpells(w: ByteWriter, spells: readonly SpellEntry[]): void {
  w.varuint(spells.length);
  for (const s of spells) {
    w.string(s.name);
    w.varuint(s.functionIndex);
  }
}

/** Lines as runs: (line delta from the previous run, zigzag) then run length. */
function writeLineRuns(w: ByteWriter, lines: Int32Array): void {
  const runs: [number, number][] = [];
  for (let i = 0; i < lines.length; i++) {
    const last = runs[runs.length - 1];
    if (last !== undefined && lines[i - 1] === lines[i]) last[1]++;
    else runs.push([lines[i]!, 1]);
  }
  w.varuint(runs.length);
  let previous = 0;
  for (const [line, count] of runs) {
    w.varint((line - previous) | 0);
    w.varuint(count);
    previous = line;
  }
}

function writeFunction(w: ByteWriter, fn: FunctionProto): void {
  const kindCode = FUNCTION_KIND_CODES.indexOf(fn.kind);
  if (kindCode < 0) throw new VerifyError(`Function '${fn.name}' has unknown kind '${String(fn.kind)}'.`);
  w.string(fn.name);
  w.u8(kindCode);
  w.varuint(fn.arity);
  w.varuint(fn.maxStack);
  w.varuint(fn.upvalues.length);
  for (const up of fn.upvalues) {
    w.u8(up.isLocal ? 1 : 0);
    w.varuint(up.index);
  }
  w.varuint(fn.code.length);
  for (const word of fn.code) w.varint(word);
  if (fn.lines.length !== fn.code.length) {
    throw new VerifyError(`Function '${fn.name}' has ${fn.lines.length} line entries for ${fn.code.length} code words.`);
  }
  writeLineRuns(w, fn.lines);
}

function writeLocals(w: ByteWriter, functions: readonly FunctionProto[]): void {
  w.varuint(functions.length);
  for (const fn of functions) {
    w.varuint(fn.locals.length);
    for (const local of fn.locals) {
      w.string(local.name);
      w.varuint(local.slot);
      w.varuint(local.startPc);
      w.varuint(local.endPc);
    }
  }
}

/** Serialize a module. Throws VerifyError only for values the format cannot hold (negative counts, bad kinds). */
export function writeSpb(module: Module): Uint8Array {
  const out = new ByteWriter();
  for (const b of SPB_MAGIC) out.u8(b);
  out.u16(SPB_VERSION);
  writeSection(out, 'source', (w) => w.string(module.sourceName));
  writeSection(out, 'constants', (w) => writeConstants(w, module.constants));
  writeSection(out, 'globals', (w) => writeStrings(w, module.globals));
  writeSection(out, 'hostImports', (w) => writeHostImports(w, module.hostImports));
  writeSection(out, 'functions', (w) => {
    w.varuint(module.functions.length);
    for (const fn of module.functions) writeFunction(w, fn);
  });
  writeSection(out, 'spells', (w) => writeSpells(w, module.spells));
  if (module.functions.some((fn) => fn.locals.length > 0)) {
    writeSection(out, 'locals', (w) => writeLocals(w, module.functions));
  }
  return out.finish();
}

// ---------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------

/** A bounds-checked cursor over one section's payload. */
class SectionReader {
  private pos: number;
  private readonly view: DataView;

  constructor(
    private readonly bytes: Uint8Array,
    start: number,
    private readonly end: number,
    private readonly section: string,
  ) {
    this.pos = start;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get remaining(): number {
    return this.end - this.pos;
  }

  fail(problem: string): never {
    throw new VerifyError(`Malformed section '${this.section}': ${problem}`);
  }

  private need(count: number, what: string): void {
    if (this.remaining < count) this.fail(`${what} runs past the end of the section.`);
  }

  u8(what: string): number {
    this.need(1, what);
    return this.bytes[this.pos++]!;
  }

  f64(what: string): number {
    this.need(8, what);
    const value = this.view.getFloat64(this.pos, true);
    this.pos += 8;
    return value;
  }

  varuint(what: string): number {
    let result = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      const byte = this.u8(what);
      result += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) === 0) {
        if (result > 0xffffffff) this.fail(`${what} does not fit in 32 bits.`);
        return result;
      }
    }
    return this.fail(`${what} is an overlong integer.`);
  }

  varint(what: string): number {
    const zigzag = this.varuint(what);
    return (zigzag >>> 1) ^ -(zigzag & 1);
  }

  /**
   * A count of items that each take at least `minItemBytes` bytes: capping it
   * by the bytes left means a forged count can never cause a huge allocation.
   */
  count(what: string, minItemBytes = 1): number {
    const n = this.varuint(what);
    if (n * minItemBytes > this.remaining) {
      this.fail(`${what} ${n} is more than the ${this.remaining} bytes left could hold.`);
    }
    return n;
  }

  string(what: string): string {
    const length = this.varuint(`length of ${what}`);
    this.need(length, what);
    const slice = this.bytes.subarray(this.pos, this.pos + length);
    this.pos += length;
    try {
      return utf8Decoder.decode(slice);
    } catch {
      return this.fail(`${what} is not valid UTF-8.`);
    }
  }

  expectEnd(): void {
    if (this.remaining !== 0) this.fail(`${this.remaining} unexpected bytes at the end of the section.`);
  }
}

function readConstants(r: SectionReader): (number | string)[] {
  const n = r.count('constant count', 2);
  const constants: (number | string)[] = [];
  for (let i = 0; i < n; i++) {
    const kind = r.u8(`kind of constant ${i}`);
    if (kind === CONSTANT_NUMBER) constants.push(r.f64(`constant ${i}`));
    else if (kind === CONSTANT_STRING) constants.push(r.string(`constant ${i}`));
    else r.fail(`constant ${i} has unknown kind ${kind}.`);
  }
  return constants;
}

function readStrings(r: SectionReader, what: string): string[] {
  const n = r.count(`${what} count`);
  const strings: string[] = [];
  for (let i = 0; i < n; i++) strings.push(r.string(`${what} ${i}`));
  return strings;
}

function readHostImports(r: SectionReader): HostImport[] {
  const n = r.count('host import count', 2);
  const imports: HostImport[] = [];
  for (let i = 0; i < n; i++) {
    const name = r.string(`name of host import ${i}`);
    const arityCount = r.count(`arity count of host import '${name}'`);
    const arities: number[] = [];
    for (let j = 0; j < arityCount; j++) arities.push(r.varuint(`arity of host import '${name}'`));
    imports.push({ name, arities });
  }
  return imports;
}

function readSpells(r: SectionReader): SpellEntry[] {
  const n = r.count('spell count', 2);
  const spells: SpellEntry[] = [];
  for (let i = 0; i < n; i++) {
    const name = r.string(`name of spell ${i}`);
    spells.push({ name, functionIndex: r.varuint(`function index of spell '${name}'`) });
  }
  return spells;
}

function readUpvalues(r: SectionReader, fnLabel: string): UpvalueDescriptor[] {
  const n = r.count(`upvalue count of ${fnLabel}`, 2);
  const upvalues: UpvalueDescriptor[] = [];
  for (let i = 0; i < n; i++) {
    const flag = r.u8(`upvalue ${i} of ${fnLabel}`);
    if (flag > 1) r.fail(`upvalue ${i} of ${fnLabel} has flag ${flag} (expected 0 or 1).`);
    upvalues.push({ isLocal: flag === 1, index: r.varuint(`upvalue ${i} of ${fnLabel}`) });
  }
  return upvalues;
}

function readLineRuns(r: SectionReader, codeLength: number, fnLabel: string): Int32Array {
  const lines = new Int32Array(codeLength);
  const runs = r.count(`line run count of ${fnLabel}`, 2);
  let filled = 0;
  let line = 0;
  for (let i = 0; i < runs; i++) {
    line = (line + r.varint(`line run of ${fnLabel}`)) | 0;
    const length = r.varuint(`line run of ${fnLabel}`);
    if (length > codeLength - filled) r.fail(`the line table of ${fnLabel} covers more than its ${codeLength} code words.`);
    lines.fill(line, filled, filled + length);
    filled += length;
  }
  if (filled !== codeLength) r.fail(`the line table of ${fnLabel} covers ${filled} of its ${codeLength} code words.`);
  return lines;
}

function readFunction(r: SectionReader, index: number): FunctionProto {
  const name = r.string(`name of function ${index}`);
  const fnLabel = `function ${index} '${name}'`;
  const kindCode = r.u8(`kind of ${fnLabel}`);
  const kind = FUNCTION_KIND_CODES[kindCode];
  if (kind === undefined) r.fail(`${fnLabel} has unknown kind ${kindCode}.`);
  const arity = r.varuint(`arity of ${fnLabel}`);
  const maxStack = r.varuint(`max stack of ${fnLabel}`);
  const upvalues = readUpvalues(r, fnLabel);
  const codeLength = r.count(`code length of ${fnLabel}`);
  const code = new Int32Array(codeLength);
  for (let i = 0; i < codeLength; i++) code[i] = r.varint(`code of ${fnLabel}`);
  const lines = readLineRuns(r, codeLength, fnLabel);
  return { name, kind, arity, maxStack, upvalues, code, lines, locals: [] };
}

function readFunctions(r: SectionReader): FunctionProto[] {
  // The smallest function: empty name, kind, arity, maxStack, 0 upvalues, 0 code, 0 runs.
  const n = r.count('function count', 7);
  const functions: FunctionProto[] = [];
  for (let i = 0; i < n; i++) functions.push(readFunction(r, i));
  return functions;
}

function readLocals(r: SectionReader, functionCount: number): LocalVariableInfo[][] {
  const n = r.count('function count');
  if (n !== functionCount) r.fail(`it describes ${n} functions but the module has ${functionCount}.`);
  const all: LocalVariableInfo[][] = [];
  for (let f = 0; f < n; f++) {
    const count = r.count(`local count of function ${f}`, 4);
    const locals: LocalVariableInfo[] = [];
    for (let i = 0; i < count; i++) {
      const name = r.string(`name of local ${i} of function ${f}`);
      const slot = r.varuint(`slot of local '${name}'`);
      const startPc = r.varuint(`start of local '${name}'`);
      const endPc = r.varuint(`end of local '${name}'`);
      locals.push({ name, slot, startPc, endPc });
    }
    all.push(locals);
  }
  return all;
}

interface SectionSpan {
  readonly start: number;
  readonly end: number;
}

const SECTION_NAMES = new Map<number, SectionName>(
  Object.entries(SECTION_TAGS).map(([name, tag]) => [tag, name as SectionName]),
);

function checkHeader(bytes: Uint8Array): void {
  if (bytes.length === 0) throw new VerifyError('Empty file: not a Cantrip bytecode file.');
  const prefix = Math.min(bytes.length, SPB_MAGIC.length);
  for (let i = 0; i < prefix; i++) {
    if (bytes[i] !== SPB_MAGIC[i]) throw new VerifyError('Not a Cantrip bytecode file (bad magic).');
  }
  if (bytes.length < HEADER_SIZE) throw new VerifyError('Truncated file: the header ends past the end of the file.');
  const version = bytes[SPB_MAGIC.length]! | (bytes[SPB_MAGIC.length + 1]! << 8);
  if (version !== SPB_VERSION) {
    throw new VerifyError(`Unsupported bytecode version ${version} (this Cantrip reads version ${SPB_VERSION}).`);
  }
}

/** Split the file into sections, checking each lies inside the file; unknown tags are skipped. */
function locateSections(bytes: Uint8Array): Map<SectionName, SectionSpan> {
  const spans = new Map<SectionName, SectionSpan>();
  let pos = HEADER_SIZE;
  while (pos < bytes.length) {
    const tag = bytes[pos]!;
    const name = SECTION_NAMES.get(tag);
    const label = name ?? `0x${tag.toString(16).padStart(2, '0')}`;
    if (bytes.length - pos < 5) throw new VerifyError(`Truncated file: the header of section '${label}' is cut off.`);
    const length = new DataView(bytes.buffer, bytes.byteOffset + pos + 1, 4).getUint32(0, true);
    const start = pos + 5;
    if (length > bytes.length - start) {
      throw new VerifyError(`Truncated file: section '${label}' ends past the end of the file.`);
    }
    if (name !== undefined) {
      if (spans.has(name)) throw new VerifyError(`Malformed file: section '${name}' appears twice.`);
      spans.set(name, { start, end: start + length });
    }
    pos = start + length;
  }
  return spans;
}

function parseSection<T>(bytes: Uint8Array, spans: Map<SectionName, SectionSpan>, name: SectionName, parse: (r: SectionReader) => T, absent: T): T {
  const span = spans.get(name);
  if (span === undefined) return absent;
  const reader = new SectionReader(bytes, span.start, span.end, name);
  const value = parse(reader);
  reader.expectEnd();
  return value;
}

function parseModule(bytes: Uint8Array): Module {
  checkHeader(bytes);
  const spans = locateSections(bytes);
  const sourceName = parseSection(bytes, spans, 'source', (r) => r.string('source name'), '');
  const constants = parseSection(bytes, spans, 'constants', readConstants, []);
  const globals = parseSection(bytes, spans, 'globals', (r) => readStrings(r, 'global'), []);
  const hostImports = parseSection(bytes, spans, 'hostImports', readHostImports, []);
  const functions = parseSection(bytes, spans, 'functions', readFunctions, null);
  if (functions === null) throw new VerifyError("Malformed file: the 'functions' section is missing.");
  const spells = parseSection(bytes, spans, 'spells', readSpells, []);
  const locals = parseSection(bytes, spans, 'locals', (r) => readLocals(r, functions.length), null);
  return {
    constants,
    functions: locals === null ? functions : functions.map((fn, i) => ({ ...fn, locals: locals[i]! })),
    globals,
    hostImports,
    spells,
    sourceName,
  };
}

/**
 * Parse a .spb file. Throws only VerifyError. The result has the right shape
 * but is not yet safe to run: pass it through verifyModule first.
 */
export function readSpb(bytes: Uint8Array): Module {
  try {
    return parseModule(bytes);
  } catch (error) {
    if (error instanceof VerifyError) throw error;
    // Defence in depth: a bug above must still surface as a clean load error.
    throw new VerifyError(`Malformed bytecode file (${error instanceof Error ? error.message : String(error)}).`);
  }
}

/** True when the bytes start like a .spb file (for tools deciding between source and bytecode). */
export function looksLikeSpb(bytes: Uint8Array): boolean {
  return SPB_MAGIC.every((b, i) => bytes[i] === b);
}
