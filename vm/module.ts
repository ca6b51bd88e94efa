/**
 * A compiled module: what the compiler produces, what a .spb file holds and
 * what the VM loads. Plain data, printable, no runtime objects.
 */

export type FunctionKind = 'script' | 'function' | 'method' | 'initializer' | 'spell';

export interface UpvalueDescriptor {
  /** True: captures the enclosing function's local slot `index`; false: its upvalue `index`. */
  readonly isLocal: boolean;
  readonly index: number;
}

/** Debug info: a named local slot live over [startPc, endPc). */
export interface LocalVariableInfo {
  readonly name: string;
  readonly slot: number;
  readonly startPc: number;
  readonly endPc: number;
}

export interface FunctionProto {
  /** '' for the top-level script. */
  readonly name: string;
  readonly kind: FunctionKind;
  readonly arity: number;
  readonly upvalues: readonly UpvalueDescriptor[];
  /** Opcode and operand words; see vm/opcodes.ts. */
  readonly code: Int32Array;
  /** Source line of every code word (same length as code). */
  readonly lines: Int32Array;
  /** Most stack slots the function uses above its frame base, slot 0 (callee/this) and parameters included. */
  readonly maxStack: number;
  /** Debug info for the debugger and the playground; may be empty. */
  readonly locals: readonly LocalVariableInfo[];
}

export interface HostImport {
  readonly name: string;
  /** The argument counts the call sites in this module use (verified against the host API at load). */
  readonly arities: readonly number[];
}

export interface SpellEntry {
  readonly name: string;
  /** Index into functions. */
  readonly functionIndex: number;
}

export interface Module {
  /** Numbers and strings. Strings double as property, method and class names. */
  readonly constants: readonly (number | string)[];
  /** functions[0] is the top-level script. */
  readonly functions: readonly FunctionProto[];
  /** Global variable names by slot. */
  readonly globals: readonly string[];
  /** Host functions this module calls, bound by name when the VM loads it. */
  readonly hostImports: readonly HostImport[];
  /** Named entry points a host can cast. */
  readonly spells: readonly SpellEntry[];
  /** The file or name the module was compiled from, for messages. */
  readonly sourceName: string;
}
