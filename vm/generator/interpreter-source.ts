/**
 * Writes the interpreter (vm/generated/interpreter.ts) from the instruction
 * definitions (vm/instructions/) and the superinstruction list
 * (vm/superinstructions.ts), as CPython's cases generator writes its
 * interpreter from Python/bytecodes.c.
 *
 * The interpreter is ONE function with ONE `switch` over numeric case labels
 * (V8 compiles a switch to a jump table only when it sees constant case
 * values: a `case O.ADD` through an import ran fib(30) 30–50% slower), with
 * ip, base, sp, code and fuel in locals. Each case is a sequence of parts —
 * one for a plain instruction, several for a superinstruction — pasted from
 * the definitions' bodies with their macros expanded (see
 * vm/instructions/define.ts). Between parts, values stay in locals (`t0`,
 * `t1`…) and only reach the stack when a part needs it.
 *
 * `ip` convention: a case starts with ip one past its opcode word. Before a
 * part that can fail, ip is moved past that part, so an error reports the
 * line of the instruction that failed, exactly as the plain code would.
 */

import { CONTINUATION_OPCODES, INSTRUCTIONS, INTERNAL_INSTRUCTIONS } from '../instructions/index.js';
import type { Instruction } from '../instructions/define.js';
import { FIRST_SUPERINSTRUCTION, SUPERINSTRUCTION_LIST, type Step } from '../superinstructions.js';

/** One instruction of a case: its definition and where its words start, counted from the case's opcode word (or the last followed jump's target). */
interface Part {
  readonly def: Instruction;
  readonly pos: number;
  /** Words it covers (JUMP_IF_FALSE_POP covers the JUMP_IF_FALSE and the POP after it). */
  readonly words: number;
  /** A jump whose target the case goes on at (a FOLLOW step came next). */
  readonly follows: boolean;
}

const BY_NAME = new Map<string, Instruction>(
  [...INSTRUCTIONS, ...INTERNAL_INSTRUCTIONS.continuations, ...INTERNAL_INSTRUCTIONS.microInstructions].map((d) => [d.name, d]),
);

function definition(name: string): Instruction {
  const def = BY_NAME.get(name);
  if (def === undefined) throw new Error(`No instruction definition named ${name}.`);
  return def;
}

const sizeOf = (def: Instruction): number => 1 + def.operands.length;

/** A superinstruction's steps as parts. */
function partsOf(steps: readonly Step[]): Part[] {
  const parts: Part[] = [];
  let pos = 0;
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i]!;
    if (step === 'FOLLOW') continue;
    const def = definition(step);
    const words = step === 'JUMP_IF_FALSE_POP' ? 3 : sizeOf(def);
    const follows = steps[i + 1] === 'FOLLOW';
    parts.push({ def, pos, words, follows });
    pos = follows ? 0 : pos + words;
  }
  return parts;
}

// ------------------------------------------------------------------ macros

/** The balanced-parenthesis arguments of a macro call starting at `open` (the index of its `(`). */
function macroArguments(text: string, open: number): { args: string[]; end: number } {
  const args: string[] = [];
  let depth = 0;
  let start = open + 1;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      depth--;
      if (depth === 0) {
        const last = text.slice(start, i).trim();
        if (last !== '' || args.length > 0) args.push(last);
        return { args, end: i + 1 };
      }
    } else if (c === ',' && depth === 1) {
      args.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  throw new Error(`Unbalanced macro call in: ${text.slice(open, open + 60)}`);
}

type Macro = (args: string[]) => string;

/** Replace each `NAME(args)` of `macros` in `text` (innermost arguments expanded first). */
function expandCalls(text: string, macros: Readonly<Record<string, Macro>>): string {
  const pattern = new RegExp(`\\b(${Object.keys(macros).join('|')})\\(`, 'g');
  let out = '';
  let from = 0;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    const open = m.index + m[1]!.length;
    const { args, end } = macroArguments(text, open);
    out += text.slice(from, m.index) + macros[m[1]!]!(args.map((a) => expandCalls(a, macros)));
    from = end;
    pattern.lastIndex = end;
  }
  return out + text.slice(from);
}

/** `ip + d`, written plainly. */
function ipPlus(d: number): string {
  return d === 0 ? 'ip' : d > 0 ? `ip + ${d}` : `ip - ${-d}`;
}

const ENTER = (callee: string, argc: string): string => `{
  const enterClosure = ${callee};
  const enterArgc = ${argc};
  const enterFn = enterClosure.fn;
  if (enterArgc !== enterFn.arity) throw new Fault(\`Expected \${enterFn.arity} arguments but got \${enterArgc}.\`);
  if (fc >= frameLimit) {
    frameLimit = growFrames(fiber, fc);
    frameIps = fiber.frameIps;
    frameBases = fiber.frameBases;
    frameClosures = fiber.frameClosures;
  }
  fuel -= enterFn.callFuel;
  if (fuel < 0) throw fuelFault(fiber);
  const newBase = sp - 1 - enterArgc;
  if (newBase + enterFn.maxStack > stack.length) fuel = growStackCharged(fiber, newBase + enterFn.maxStack, fuel);
  frameIps[fc - 1] = ip;
  frameClosures[fc] = enterClosure;
  frameBases[fc] = newBase;
  fc++;
  closure = enterClosure;
  fn = enterFn;
  code = enterFn.code;
  ip = 0;
  base = newBase;
  continue next;
}`;

const CALL_OUT = (slot: string, call: string): string => `{
  fiber.fuel = fuel;
  ctx.fn = fn;
  ctx.ip = ip;
  const callResult = ${call};
  fuel = fiber.fuel;
  sp = ${slot};
  if (ctx.suspendRequested) {
    ctx.suspendRequested = false;
    return suspend(fiber, 'suspended', fc, ip, sp, fuel);
  }
  stack[sp++] = callResult;
}`;

/**
 * Frame slot `slot` (an expression) read or written where the values `pending`
 * hold are logically on the stack at sp, sp + 1, …: a slot at or above sp is
 * one of them.
 */
function localRead(slot: string, pending: readonly string[]): string {
  if (pending.length === 0) return `stack[${slot}]!`;
  let pick = pending[pending.length - 1]!;
  for (let i = pending.length - 2; i >= 0; i--) pick = `localSlot === sp + ${i} ? ${pending[i]} : ${pick}`;
  return `((localSlot = ${slot}) < sp ? stack[localSlot]! : ${pick})`;
}

function localWrite(slot: string, value: string, pending: readonly string[]): string {
  if (pending.length === 0) return `stack[${slot}] = ${value}`;
  let store = `${pending[pending.length - 1]!} = ${value}`;
  for (let i = pending.length - 2; i >= 0; i--) store = `if (localSlot === sp + ${i}) ${pending[i]} = ${value}; else ${store}`;
  return `if ((localSlot = ${slot}) < sp) stack[localSlot] = ${value}; else ${store}`;
}

/** A part's body with its macros expanded, `cur` being ip's offset from the part's base when it runs and `pending` the values held in locals. */
function expandBody(part: Part, cur: number, pending: readonly string[] = []): string {
  const { def, pos } = part;
  const jump = (target: string): string => (part.follows ? `ip = (${target}) + 1;` : `{ ip = ${target}; continue next; }`);
  let text = def.body
    .replace(/\$(\d)/g, (_, k: string) => `code[${ipPlus(pos + 1 + Number(k) - cur)}]!`)
    .replace(/\bAT\b/g, `(${ipPlus(pos - cur)})`)
    .replace(/\bNEXT\b/g, `(${ipPlus(pos + sizeOf(def) - cur)})`)
    .replace(/\bIC\b/g, `(${ipPlus(pos + 1 - cur)})`);
  text = expandCalls(text, {
    FAULT: ([message]) => `throw new Fault(${message})`,
    CHARGE: ([n]) => `{ fuel -= ${n}; if (fuel < 0) throw fuelFault(fiber); }`,
    HEAP: ([n]) => `fuel -= chargeHeap(fiber, ${n}, fuel)`,
    OUT_OF_FUEL: () => 'throw fuelFault(fiber)',
    JUMP: ([target]) => jump(target!),
    RESUME_AT: ([target]) => `{ ip = ${target}; continue next; }`,
    GOTO: ([name]) => `{ op = ${CONTINUATION_OPCODES[name!]}; continue dispatch; }`,
    DISPATCH: ([opcode]) => `{ op = ${opcode}; continue dispatch; }`,
    ENTER: ([callee, argc]) => ENTER(callee!, argc!),
    CALL_OUT: ([slot, call]) => CALL_OUT(slot!, call!),
    LOCAL: ([k]) => localRead(`base + ${k}`, pending),
    STORE_LOCAL: ([k, value]) => localWrite(`base + ${k}`, value!, pending),
  });
  return text;
}

// ------------------------------------------------------------------ cases

/** Writes one case: the parts in order, values between them in temporaries. */
class CaseWriter {
  private readonly lines: string[] = [];
  private readonly pending: string[] = [];
  private temps = 0;
  private usesLocalSlot = false;
  /** ip's offset from the current base. */
  private cur = 1;

  constructor(
    private readonly label: string,
    private readonly parts: readonly Part[],
  ) {}

  write(): string {
    for (const part of this.parts) {
      if (part.def.kind === 'frame') this.frame(part);
      else this.stackPart(part);
      if (part.follows) this.cur = 1;
    }
    const last = this.parts[this.parts.length - 1]!;
    if (!last.def.terminal) {
      this.flush();
      this.moveIp(last.pos + last.words);
      this.lines.push('continue next;');
    }
    const declared = Array.from({ length: this.temps }, (_, i) => `t${i}`);
    if (this.usesLocalSlot) declared.push('localSlot');
    const head = declared.length > 0 ? [`let ${declared.map((t) => (t === 'localSlot' ? 'localSlot = 0' : `${t}: Value`)).join(', ')};`] : [];
    return `case ${this.label}: {\n${indent([...head, ...this.lines].join('\n'), 2)}\n}`;
  }

  private moveIp(to: number): void {
    if (to !== this.cur) this.lines.push(`ip += ${to - this.cur};`);
    this.cur = to;
  }

  /** Put the values held in temporaries on the stack. */
  private flush(): void {
    if (this.pending.length === 0) return;
    this.pending.forEach((t, i) => this.lines.push(`stack[${i === 0 ? 'sp' : `sp + ${i}`}] = ${t};`));
    this.lines.push(`sp += ${this.pending.length};`);
    this.pending.length = 0;
  }

  private frame(part: Part): void {
    this.flush();
    this.moveIp(part.pos + part.words);
    this.lines.push(block(expandBody(part, this.cur)));
  }

  private stackPart(part: Part): void {
    const def = part.def;
    if (def.kind !== 'stack') throw new Error('unreachable');
    const inputs = def.inputs;
    const fromPending = Math.min(inputs.length, this.pending.length);
    const fromStack = inputs.length - fromPending;
    const taken = this.pending.splice(this.pending.length - fromPending, fromPending);
    const body: string[] = [];
    inputs.forEach((name, i) => {
      // `as Value`: a temporary holding a literal must not narrow the input's type.
      const source = i < fromStack ? `stack[sp - ${fromStack - i}]!` : `${taken[i - fromStack]!} as Value`;
      if (!name.startsWith('_')) body.push(`const ${name} = ${source};`);
    });
    if (fromStack > 0) body.push(`sp -= ${fromStack};`);
    // A part that jumps leaves the case with the stack as the plain code has it.
    if (/\bJUMP\(/.test(def.body)) {
      if (def.outputs.length > 0) throw new Error(`${def.name}: a jumping stack instruction cannot push.`);
      this.flushInto(body);
    }
    if (def.mayFail) this.moveIpInto(body, part.pos + part.words);
    for (const name of new Set(def.outputs)) if (!inputs.includes(name)) body.push(`let ${name}: Value;`);
    if (/\bstack\[/.test(def.body)) throw new Error(`${def.name}: a stack body reaches frame slots through LOCAL and STORE_LOCAL only.`);
    const text = expandBody(part, this.cur, this.pending).trim();
    if (/localSlot/.test(text)) this.usesLocalSlot = true;
    if (text !== '') body.push(text);
    for (const name of def.outputs) {
      const t = `t${this.temps++}`;
      body.push(`${t} = ${name};`);
      this.pending.push(t);
    }
    if (body.length > 0) this.lines.push(block(body.join('\n')));
  }

  private flushInto(body: string[]): void {
    const before = this.lines.length;
    this.flush();
    body.unshift(...this.lines.splice(before));
  }

  private moveIpInto(body: string[], to: number): void {
    const before = this.lines.length;
    this.moveIp(to);
    body.unshift(...this.lines.splice(before));
  }
}

function block(text: string): string {
  return `{\n${indent(text.trim(), 2)}\n}`;
}

function indent(text: string, n: number): string {
  const pad = ' '.repeat(n);
  return text
    .split('\n')
    .map((line) => (line.trim() === '' ? '' : pad + line.trim()))
    .join('\n');
}

/** Every case of the interpreter's switch. */
export function interpreterCases(): string[] {
  const cases: string[] = [];
  INSTRUCTIONS.forEach((def, opcode) => {
    cases.push(new CaseWriter(`${opcode} /* ${def.name} */`, [{ def, pos: 0, words: sizeOf(def), follows: false }]).write());
  });
  for (const def of INTERNAL_INSTRUCTIONS.continuations) {
    cases.push(new CaseWriter(`${CONTINUATION_OPCODES[def.name]} /* ${def.name} */`, [{ def, pos: 0, words: 1, follows: false }]).write());
  }
  SUPERINSTRUCTION_LIST.forEach((sup, i) => {
    const label = `${FIRST_SUPERINSTRUCTION + i} /* ${sup.name}: ${sup.steps.join(' ')} */`;
    cases.push(new CaseWriter(label, partsOf(sup.steps)).write());
  });
  return cases;
}

const HEADER = `// GENERATED FILE — do not edit. Written by vm/generator/interpreter-source.ts from the
// instruction definitions in vm/instructions/ and the superinstructions in vm/superinstructions.ts.
// \`npm run generate\` writes it again; vm/generator/interpreter-fresh.test.ts fails while it is stale.
`;

/** The whole source of vm/generated/interpreter.ts. */
export function interpreterSource(): string {
  const cases = interpreterCases().map((c) => indent2(c, 10));
  return `${HEADER}
/**
 * The interpreter: a clox-style stack machine running a fiber's frames until
 * it returns, waits, pauses at a breakpoint or fails. See
 * vm/generator/interpreter-source.ts for how it is written, and
 * vm/instructions/ for what each case does.
 */

import { HEAP_COST } from '../costs.js';
import { displayBounded, displayValue } from '../display.js';
import { quoted } from '../bounded-text.js';
import type { Fiber } from '../fiber.js';
import { hostArityMessage } from '../host.js';
import { ObjMap } from '../map-object.js';
import { ObjBoundMethod, ObjClass, ObjClosure, ObjHostFunction, ObjInstance, ObjList, isHostObject } from '../objects.js';
import { templateText } from '../template.js';
import type { Value } from '../value.js';
import { chargeHeap, chargeOutput } from '../interpreter/charges.js';
import { Fault, fuelFault } from '../interpreter/fault.js';
import { fail, growFrames, growStackCharged, suspend } from '../interpreter/frames.js';
import { callBuiltinMethod, callHost, invokeOther } from '../interpreter/host-calls.js';
import type { InterpreterVM } from '../interpreter/interpreter-vm.js';
import { NO_UPVALUES, captureUpvalues, closeUpvalues, lastCapture } from '../interpreter/upvalues.js';
import {
  UNDEFINED,
  checkIndex,
  concatStrings,
  getInstanceProperty,
  getMapEntry,
  getOtherProperty,
  hostEquals,
  inherit,
  setMapEntry,
  setProperty,
} from '../interpreter/value-ops.js';

export function interpret(vm: InterpreterVM, fiber: Fiber): Fiber {
  const constants = vm.constants;
  const globals = vm.globals;
  const globalNames = vm.globalNames;
  const functions = vm.functions;
  const hostImports = vm.hostImports;
  const ctx = vm.ctx;
  const print = vm.printFn;
  const stack = fiber.stack;
  let frameIps = fiber.frameIps;
  let frameBases = fiber.frameBases;
  let frameClosures = fiber.frameClosures;
  let fc = fiber.frameCount;
  let frameLimit = Math.min(frameIps.length, fiber.frameBudget);
  let closure = frameClosures[fc - 1]!;
  let fn = closure.fn;
  let code = fn.code;
  let ip = frameIps[fc - 1]!;
  let base = frameBases[fc - 1]!;
  let sp = fiber.sp;
  let fuel = fiber.fuel;
  // The registers of the call continuations (PUSH_FRAME, CALL_VALUE).
  let callTarget: ObjClosure = closure;
  let callArgc = 0;
  fiber.state = 'running';

  try {
    next: for (;;) {
      let op = code[ip++]!;
      // The inner loop exists only so a case can re-dispatch (\`continue dispatch\`) to another
      // case: the call continuations, and BREAK running the instruction it replaced.
      dispatch: for (;;) {
        switch (op) {
${cases.join('\n')}
          default:
            throw new Fault(\`Unknown opcode \${op}.\`);
        }
      }
    }
  } catch (error) {
    return fail(vm, fiber, error, fc, ip, sp, fuel);
  }
}
`;
}

function indent2(text: string, n: number): string {
  const pad = ' '.repeat(n);
  let depth = 0;
  return text
    .split('\n')
    .map((line) => {
      const t = line.trim();
      if (t === '') return '';
      if (t.startsWith('}') || t.startsWith(']') || t.startsWith(')')) depth = Math.max(0, depth - 1);
      const out = pad + '  '.repeat(depth) + t;
      const opens = (t.match(/[{[(]/g) ?? []).length;
      const closes = (t.match(/[}\])]/g) ?? []).length;
      depth = Math.max(0, depth + opens - closes + (t.startsWith('}') || t.startsWith(']') || t.startsWith(')') ? 1 : 0));
      return out;
    })
    .join('\n');
}
