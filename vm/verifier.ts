/**
 * The bytecode verifier: decides whether a Module is safe to hand to the VM.
 *
 * A module that passes cannot make the VM read outside its code, constants,
 * globals, upvalues, host imports or its frame's stack window, nor leave the
 * stack deeper than the function declared, nor fall off the end of a function.
 * Everything is derived from the OPCODES table (operand kinds, sizes, stack
 * effects), so a new opcode is verified without touching this file unless it
 * needs a rule the table cannot express.
 *
 * The stack model (the compiler's, as in clox): a frame starts with depth
 * 1 + arity (slot 0 is the callee or `this`, then the parameters); locals are
 * pushed by their initializers and stay. No instruction may pop below that
 * base, and every local slot an instruction names must already be on the stack.
 *
 * What it cannot check, and the VM must therefore check at run time: value
 * types (operands of ADD, the class under METHOD, the list under FOR_ITER …),
 * the callee's arity on CALL, and the budgets (frames, stack, fuel, heap).
 */

import { VerifyError } from './errors.js';
import { hostArity, type HostFunctionSpec } from './host.js';
import type { FunctionProto, Module } from './module.js';
import { readSpb } from './spb.js';
import { quoted } from './bounded-text.js';
import { instructionSize, Op, OPCODES, stackEffect, type OpcodeInfo, type OperandKind } from './opcodes.js';

/**
 * What the verifier accepts: far above what real spells need (the compiler's own
 * limits are lower or equal), low enough that a forged module cannot make the VM,
 * the verifier or the disassembler do more than a bounded amount of work per word
 * of the file. Documented in docs/bytecode.md and docs/security.md.
 */
export const VERIFIER_LIMITS = {
  functions: 1 << 16,
  constants: 1 << 20,
  /** Characters in all string constants together (16 M). */
  constantChars: 1 << 24,
  globals: 1 << 20,
  /** Host functions imported (each a distinct name). */
  hostImports: 1 << 12,
  /** Distinct arities declared per host import (an arity is 0..255). */
  aritiesPerImport: 256,
  spells: 1 << 16,
  codeWordsPerFunction: 1 << 22,
  codeWordsTotal: 1 << 24,
  maxStack: 1 << 20,
  arity: 255,
  /** Upvalues per function: the compiler's limit too (clox's 256). */
  upvalues: 256,
  count: 1 << 20,
} as const;

/**
 * Opcodes the VM patches into code at run time (the debugger's BREAK) that a
 * module must never contain: the VM would look for a replaced instruction
 * that does not exist.
 */
const INTERNAL_OPCODES: ReadonlySet<string> = new Set(['BREAK']);

/** The jumps that charge fuel (the VM counts instructions at back edges): the only ones allowed to go backward. */
const BACK_EDGE_OPCODES: ReadonlySet<string> = new Set(['LOOP']);

/** Verify a module against the host API it will run with. Throws VerifyError naming the function and offset. */
export function verifyModule(module: Module, hosts: readonly HostFunctionSpec[]): void {
  checkModuleSizes(module);
  checkConstants(module);
  checkHostImports(module, hosts);
  checkFunctionKinds(module);
  checkSpells(module);
  // Checked before the per-function pass, which relies on them being small.
  for (let i = 0; i < module.functions.length; i++) {
    const count = module.functions[i]!.upvalues.length;
    if (count > VERIFIER_LIMITS.upvalues) {
      throw new VerifyError(`Too many upvalues (${count}; the limit is ${VERIFIER_LIMITS.upvalues}).`, module.functions[i]!.name, 0);
    }
  }
  const facts: ModuleFacts = { arities: importedArities(module), captures: captureBounds(module) };
  for (let i = 0; i < module.functions.length; i++) new FunctionVerifier(module, i, facts).verify();
}

/** Read a .spb file and verify it: the one call for loading untrusted bytecode. Throws only VerifyError. */
export function readVerifiedSpb(bytes: Uint8Array, hosts: readonly HostFunctionSpec[]): Module {
  const module = readSpb(bytes);
  verifyModule(module, hosts);
  return module;
}

function fail(message: string): never {
  throw new VerifyError(message);
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function isCount(n: unknown, limit: number): n is number {
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= limit;
}

function checkModuleSizes(module: Module): void {
  const sizes: [string, readonly unknown[], number][] = [
    ['functions', module.functions, VERIFIER_LIMITS.functions],
    ['constants', module.constants, VERIFIER_LIMITS.constants],
    ['globals', module.globals, VERIFIER_LIMITS.globals],
    ['host imports', module.hostImports, VERIFIER_LIMITS.hostImports],
    ['spells', module.spells, VERIFIER_LIMITS.spells],
  ];
  for (const [what, list, limit] of sizes) {
    if (list.length > limit) fail(`Too many ${what}: ${list.length} (the limit is ${limit}).`);
  }
  if (module.functions.length === 0) fail('The module has no functions (functions[0] must be the script).');
  let total = 0;
  for (const fn of module.functions) total += fn.code.length;
  if (total > VERIFIER_LIMITS.codeWordsTotal) {
    fail(`Too much code: ${total} words (the limit is ${VERIFIER_LIMITS.codeWordsTotal}).`);
  }
  module.globals.forEach((g, i) => typeof g === 'string' || fail(`Global ${i} has no name.`));
  if (typeof module.sourceName !== 'string') fail('The module has no source name.');
}

function checkConstants(module: Module): void {
  let chars = 0;
  module.constants.forEach((c, i) => {
    if (typeof c === 'string') chars += c.length;
    else if (typeof c !== 'number') fail(`Constant ${i} is neither a number nor a string.`);
  });
  if (chars > VERIFIER_LIMITS.constantChars) {
    fail(`Too much constant text: ${chars} characters (the limit is ${VERIFIER_LIMITS.constantChars}).`);
  }
}

function checkHostImports(module: Module, hosts: readonly HostFunctionSpec[]): void {
  const byName = new Map(hosts.map((h) => [h.name, h]));
  for (const imp of module.hostImports) {
    const spec = byName.get(imp.name);
    if (spec === undefined) fail(`The module calls host function ${quoted(imp.name)}, which this host does not provide.`);
    if (imp.arities.length > VERIFIER_LIMITS.aritiesPerImport) {
      fail(`Host import '${imp.name}' declares ${imp.arities.length} arities (the limit is ${VERIFIER_LIMITS.aritiesPerImport}).`);
    }
    const { min, max } = hostArity(spec);
    for (const arity of imp.arities) {
      if (!isCount(arity, VERIFIER_LIMITS.count) || arity < min || arity > max) {
        const expected = min === max ? `${min}` : `${min} to ${max}`;
        fail(`The module calls host function '${imp.name}' with ${arity} arguments; it takes ${expected}.`);
      }
    }
  }
}

/** Per host import, the arities it declared, as a set: CALL_HOST checks are O(1) (a list scan per call was quadratic). */
function importedArities(module: Module): ReadonlySet<number>[] {
  return module.hostImports.map((imp) => new Set(imp.arities));
}

/**
 * Per function, the highest stack slot and upvalue index its upvalues capture (-1 for none):
 * each CLOSURE then checks its captures in O(1) instead of rescanning the target's upvalue list.
 */
interface CaptureBounds {
  readonly maxLocal: number;
  readonly maxUpvalue: number;
  /** The first upvalue (its position) capturing maxLocal / maxUpvalue, for messages. */
  readonly maxLocalAt: number;
  readonly maxUpvalueAt: number;
}

function captureBounds(module: Module): CaptureBounds[] {
  return module.functions.map((fn) => {
    let maxLocal = -1;
    let maxUpvalue = -1;
    let maxLocalAt = -1;
    let maxUpvalueAt = -1;
    fn.upvalues.forEach((u, i) => {
      if (u.isLocal && u.index > maxLocal) [maxLocal, maxLocalAt] = [u.index, i];
      if (!u.isLocal && u.index > maxUpvalue) [maxUpvalue, maxUpvalueAt] = [u.index, i];
    });
    return { maxLocal, maxUpvalue, maxLocalAt, maxUpvalueAt };
  });
}

/** What verifying the functions reads about the whole module, computed once. */
interface ModuleFacts {
  readonly arities: readonly ReadonlySet<number>[];
  readonly captures: readonly CaptureBounds[];
}

function checkFunctionKinds(module: Module): void {
  const script = module.functions[0]!;
  if (script.kind !== 'script') fail(`functions[0] must be the script, not a ${script.kind}.`);
  if (script.arity !== 0) fail('The script must take no parameters.');
  if (script.upvalues.length !== 0) fail('The script cannot capture upvalues.');
  module.functions.forEach((fn, i) => {
    if (i > 0 && fn.kind === 'script') fail(`functions[${i}] '${fn.name}' claims to be a script; only functions[0] can be.`);
  });
}

function checkSpells(module: Module): void {
  const names = new Set<string>();
  for (const spell of module.spells) {
    if (names.has(spell.name)) fail(`Spell '${spell.name}' is declared twice.`);
    names.add(spell.name);
    const fn = Number.isInteger(spell.functionIndex) ? module.functions[spell.functionIndex] : undefined;
    if (fn === undefined || spell.functionIndex === 0) {
      fail(`Spell '${spell.name}' points at function ${spell.functionIndex}, which is not a spell function.`);
    }
    if (fn.kind !== 'spell') fail(`Spell '${spell.name}' points at function '${fn.name}', which is a ${fn.kind}, not a spell.`);
    // A host casts a spell by creating a fresh closure: there is nothing it could capture.
    if (fn.upvalues.length !== 0) fail(`Spell '${spell.name}' captures upvalues; spells are top-level.`);
  }
}

/** Verifies one function: its shape, then decoding, then operands, then the stack by abstract interpretation. */
class FunctionVerifier {
  private readonly fn: FunctionProto;
  private readonly label: string;
  private readonly code: Int32Array;
  /** 1 where an instruction starts. */
  private boundaries = new Uint8Array(0);
  /** Stack depth on entry to each instruction, -1 until reached. */
  private depthAt = new Int32Array(0);

  constructor(
    private readonly module: Module,
    private readonly index: number,
    private readonly facts: ModuleFacts,
  ) {
    this.fn = module.functions[index]!;
    this.label = this.fn.name === '' && index === 0 ? '' : this.fn.name || `functions[${index}]`;
    this.code = this.fn.code;
  }

  verify(): void {
    this.checkShape();
    this.decode();
    this.forEachInstruction((pc, info) => this.checkOperands(pc, info));
    this.checkStack();
  }

  private fail(message: string, offset: number): never {
    throw new VerifyError(message, this.label, offset);
  }

  private checkShape(): void {
    const { fn } = this;
    if (!(fn.code instanceof Int32Array) || !(fn.lines instanceof Int32Array)) this.fail('Code and lines must be Int32Arrays.', 0);
    if (fn.code.length === 0) this.fail('The function has no code.', 0);
    if (fn.code.length > VERIFIER_LIMITS.codeWordsPerFunction) this.fail(`The function has too much code (${fn.code.length} words).`, 0);
    if (fn.lines.length !== fn.code.length) {
      this.fail(`The line table has ${fn.lines.length} entries for ${fn.code.length} code words.`, 0);
    }
    // Lines end up in error messages and traces ("[line N]"): no negative ones.
    const badLine = fn.lines.findIndex((line) => line < 0);
    if (badLine >= 0) this.fail(`The line table gives line ${fn.lines[badLine]} to code word ${badLine}.`, badLine);
    if (!isCount(fn.arity, VERIFIER_LIMITS.arity)) this.fail(`Bad arity ${fn.arity}.`, 0);
    if (!isCount(fn.maxStack, VERIFIER_LIMITS.maxStack) || fn.maxStack < 1 + fn.arity) {
      this.fail(`Bad maxStack ${fn.maxStack}: it must hold slot 0 and the ${fn.arity} parameters.`, 0);
    }
    if (fn.upvalues.length > VERIFIER_LIMITS.upvalues) {
      this.fail(`Too many upvalues (${fn.upvalues.length}; the limit is ${VERIFIER_LIMITS.upvalues}).`, 0);
    }
    fn.upvalues.forEach((u, i) => {
      if (typeof u.isLocal !== 'boolean' || !isCount(u.index, VERIFIER_LIMITS.maxStack)) this.fail(`Upvalue ${i} is malformed.`, 0);
    });
    for (const local of fn.locals) {
      const ok =
        typeof local.name === 'string' &&
        isCount(local.slot, fn.maxStack - 1) &&
        isCount(local.startPc, fn.code.length) &&
        isCount(local.endPc, fn.code.length) &&
        local.startPc <= local.endPc;
      if (!ok) this.fail(`Debug info for local '${String(local.name)}' is out of range.`, 0);
    }
  }

  /** Walk the code once, marking instruction boundaries and rejecting unknown opcodes and cut-off operands. */
  private decode(): void {
    const { code } = this;
    this.boundaries = new Uint8Array(code.length);
    for (let pc = 0; pc < code.length; ) {
      const opcode = code[pc]!;
      const info = OPCODES[opcode];
      if (info === undefined) this.fail(`Unknown opcode ${opcode}.`, pc);
      if (INTERNAL_OPCODES.has(info.name)) this.fail(`${info.name} is internal to the VM and cannot appear in a module.`, pc);
      const size = instructionSize(opcode);
      if (pc + size > code.length) this.fail(`${OPCODES[opcode]!.name} runs past the end of the code.`, pc);
      this.boundaries[pc] = 1;
      pc += size;
    }
  }

  private forEachInstruction(visit: (pc: number, info: OpcodeInfo) => void): void {
    for (let pc = 0; pc < this.code.length; pc += instructionSize(this.code[pc]!)) visit(pc, OPCODES[this.code[pc]!]!);
  }

  private operands(pc: number, info: OpcodeInfo): number[] {
    return info.operands.map((_, i) => this.code[pc + 1 + i]!);
  }

  /** Static range checks: every operand points inside the table its kind names. */
  private checkOperands(pc: number, info: OpcodeInfo): void {
    const operands = this.operands(pc, info);
    info.operands.forEach((kind, i) => this.checkOperand(pc, info, kind, operands[i]!, operands));
  }

  private checkOperand(pc: number, info: OpcodeInfo, kind: OperandKind, value: number, operands: readonly number[]): void {
    const { module, fn } = this;
    const inRange = (length: number, what: string): void => {
      if (value < 0 || value >= length) this.fail(`${info.name} refers to ${what} ${value}, but there are ${length}.`, pc);
    };
    switch (kind) {
      case 'constant':
        return inRange(module.constants.length, 'constant');
      case 'name':
        inRange(module.constants.length, 'constant');
        if (typeof module.constants[value] !== 'string') this.fail(`${info.name} needs a name, but constant ${value} is a number.`, pc);
        return;
      case 'local':
        // FOR_ITER reads two slots: the list and the index.
        return inRange(info.name === 'FOR_ITER' ? fn.maxStack - 1 : fn.maxStack, 'stack slot');
      case 'upvalue':
        return inRange(fn.upvalues.length, 'upvalue');
      case 'global':
        return inRange(module.globals.length, 'global');
      case 'function':
        inRange(module.functions.length, 'function');
        if (value === 0) this.fail(`${info.name} cannot refer to the script.`, pc);
        return this.checkCaptures(pc, value);
      case 'host':
        return inRange(module.hostImports.length, 'host import');
      case 'jump':
        if (value < 0 || value >= this.code.length || this.boundaries[value] !== 1) {
          this.fail(`${info.name} jumps to ${value}, which is not an instruction in this function.`, pc);
        }
        return this.checkJumpDirection(pc, info, value);
      case 'count':
        if (value < 0 || value > VERIFIER_LIMITS.count) this.fail(`${info.name} has a bad count ${value}.`, pc);
        return this.checkHostArity(pc, info, value, operands);
    }
  }

  /**
   * Fuel is charged at back edges only, so every cycle must contain one: the
   * back-edge instruction (LOOP) may only jump backward, every other jump only
   * forward. Without this a backward JUMP would spin forever, free of charge.
   */
  private checkJumpDirection(pc: number, info: OpcodeInfo, target: number): void {
    if (BACK_EDGE_OPCODES.has(info.name)) {
      if (target > pc) this.fail(`${info.name} jumps forward to ${target}; it is for back edges only.`, pc);
    } else if (target <= pc) {
      this.fail(`${info.name} jumps backward to ${target}; only LOOP may (it charges fuel).`, pc);
    }
  }

  /** A host call's argument count must be one the module declared (and the host API accepted). */
  private checkHostArity(pc: number, info: OpcodeInfo, count: number, operands: readonly number[]): void {
    const hostOperand = info.operands.indexOf('host');
    if (hostOperand < 0) return;
    const importIndex = operands[hostOperand]!;
    const imp = this.module.hostImports[importIndex]!;
    if (!this.facts.arities[importIndex]!.has(count)) {
      this.fail(`${info.name} calls '${imp.name}' with ${count} arguments, an arity the module did not import.`, pc);
    }
  }

  /** The upvalues a closure captures must exist in this (the enclosing) function: O(1) per CLOSURE, from the precomputed bounds. */
  private checkCaptures(pc: number, functionIndex: number): void {
    const target = this.module.functions[functionIndex]!;
    const bounds = this.facts.captures[functionIndex]!;
    if (bounds.maxLocal >= this.fn.maxStack) {
      this.fail(
        `The closure over '${target.name}' captures stack slot ${bounds.maxLocal} (upvalue ${bounds.maxLocalAt}), which this function does not have.`,
        pc,
      );
    }
    if (bounds.maxUpvalue >= this.fn.upvalues.length) {
      this.fail(
        `The closure over '${target.name}' captures upvalue ${bounds.maxUpvalue} (upvalue ${bounds.maxUpvalueAt}), which this function does not have.`,
        pc,
      );
    }
  }

  /** Abstract interpretation of the stack depth over the control-flow graph. */
  private checkStack(): void {
    const base = 1 + this.fn.arity;
    this.depthAt = new Int32Array(this.code.length).fill(-1);
    const worklist: number[] = [];
    const reach = (pc: number, depth: number, from: number): void => {
      const known = this.depthAt[pc]!;
      if (known === -1) {
        this.depthAt[pc] = depth;
        worklist.push(pc);
      } else if (known !== depth) {
        this.fail(`Stack depth ${depth} arriving from offset ${from} does not match depth ${known} at this merge point.`, pc);
      }
    };
    reach(0, base, 0);
    while (worklist.length > 0) {
      const pc = worklist.pop()!;
      this.stepStack(pc, this.depthAt[pc]!, base, reach);
    }
  }

  private stepStack(pc: number, depth: number, base: number, reach: (pc: number, depth: number, from: number) => void): void {
    const info = OPCODES[this.code[pc]!]!;
    const operands = this.operands(pc, info);
    const pops = stackEffect(info.pops, operands);
    if (depth - pops < base) {
      this.fail(`${info.name} needs ${plural(pops, 'value')} on the stack but finds ${depth - base} above the locals base.`, pc);
    }
    this.checkLiveSlots(pc, info, operands, depth);
    const after = depth + stackEffect(info.stack, operands);
    if (after > this.fn.maxStack) this.fail(`${info.name} grows the stack to ${after}, past maxStack ${this.fn.maxStack}.`, pc);
    if (after < base) this.fail(`${info.name} pops below the locals base.`, pc);
    if (info.branchStack !== undefined) {
      const target = operands[info.operands.indexOf('jump')]!;
      reach(target, depth + info.branchStack, pc);
    }
    if (info.terminal === true) return;
    const next = pc + instructionSize(this.code[pc]!);
    if (next >= this.code.length) this.fail(`Control falls off the end of the function after ${info.name}.`, pc);
    reach(next, after, pc);
  }

  /** Local slots an instruction reads or writes must already be on the stack (they hold values, not garbage). */
  private checkLiveSlots(pc: number, info: OpcodeInfo, operands: readonly number[], depth: number): void {
    info.operands.forEach((kind, i) => {
      if (kind !== 'local') return;
      const slot = operands[i]!;
      const highest = this.code[pc] === Op.FOR_ITER ? slot + 1 : slot;
      if (highest >= depth) this.fail(`${info.name} uses stack slot ${highest}, but only ${depth} slots are live.`, pc);
    });
    if (this.code[pc] === Op.CLOSURE) {
      // The VM pushes the closure before capturing, so a local function may capture its own slot (slot == depth).
      const highest = this.facts.captures[operands[0]!]!.maxLocal;
      if (highest > depth) this.fail(`CLOSURE captures stack slot ${highest}, but only ${depth + 1} slots are live.`, pc);
    }
  }
}
