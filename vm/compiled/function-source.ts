/**
 * The compiled tier's code generator: a function's bytecode as the source of
 * one JavaScript function, written from the same instruction definitions as
 * the interpreter (vm/instructions/, vm/generator/case-writer.ts). Like V8's
 * Sparkplug it keeps the interpreter's frame layout — locals in the fiber's
 * stack, a frame record per call — so control can pass between the tiers at
 * any call, return, wait or loop header; unlike the interpreter it runs a
 * whole basic block without dispatch, with operands as literals and the
 * values between instructions in JavaScript locals.
 *
 * What reaches the source text: numbers only — operand words (code offsets,
 * slot and table indices) read from an Int32Array, and the function's index.
 * A spell's strings, names and constants stay in the module's tables and are
 * reached by index, so nothing a spell wrote ever becomes source text.
 *
 * The function: `(vm, fiber, closure, base, ip, sp) => status` runs from
 * `ip` (a block leader: the start, a jump target) with the stack top `sp`
 * (the fuel left in fiber.fuel), until the function returns (RETURNED: its result at
 * `base`, the fuel left in fiber.fuel, fiber.frameCount one less), the
 * fiber's first frame returns (FINISHED), or it leaves the rest to the
 * interpreter (UNWOUND: a wait, an entry point that is not a leader, a callee
 * too deep for the JS stack; its registers in the fiber).
 */

import { Op, OPCODES, instructionSize, stackEffect } from '../opcodes.js';
import { INLINE_NONE, type ObjFunction } from '../objects.js';
import type { Module } from '../module.js';
import { stackDepths } from '../verifier.js';
import { CaseWriter } from '../generator/case-writer.js';
import { callOut, formatCode } from '../generator/macros.js';
import { LOOP_PAUSE } from './statuses.js';
import { definition, single, type Part } from '../generator/parts.js';
import { popsOf, stackOf, type Instruction } from '../instructions/define.js';
import { INSTRUCTIONS, INTERNAL_INSTRUCTIONS } from '../instructions/index.js';
import type { Tier } from '../generator/tier.js';
import { stripTypes } from './strip-types.js';
import { QUICK_MAP_METHODS } from '../map-methods.js';
import { NO_PROMOTION, NO_SHADOWS, NO_WRITE_BACK, capturedSlots, hoistedConstants, promotedSlots, shadowSlots, unheldSlots } from './loop-locals.js';

/**
 * The instructions of `code`, the block leaders, and the JUMP_IF_FALSE
 * instructions fused with the POP after them (JUMP_IF_FALSE t; POP where t
 * holds a POP and nothing jumps to the POP between: one part whose taken
 * branch goes to t + 1). Null when the code holds anything the compiled tier
 * does not run.
 */
function analyse(code: Int32Array): { starts: number[]; leaders: Set<number>; fused: Set<number>; targets: Set<number> } | null {
  const starts: number[] = [];
  const targets = new Set<number>([0]);
  for (let pc = 0; pc < code.length; ) {
    const op = code[pc]!;
    if (op < 0 || op >= OPCODES.length || op === Op.BREAK) return null;
    starts.push(pc);
    OPCODES[op]!.operands.forEach((kind, k) => {
      if (kind === 'jump') targets.add(code[pc + 1 + k]!);
    });
    pc += instructionSize(op);
  }
  const fused = new Set<number>();
  const leaders = new Set(targets);
  for (const pc of starts) {
    const op = code[pc]!;
    const info = OPCODES[op]!;
    const size = instructionSize(op);
    if (op === Op.JUMP_IF_FALSE && code[pc + size] === Op.POP && !targets.has(pc + size) && code[code[pc + 1]!] === Op.POP) {
      fused.add(pc);
      leaders.add(code[pc + 1]! + 1);
      leaders.add(pc + size + 1);
    } else if (info.branchStack !== undefined || info.terminal === true) leaders.add(pc + size);
  }
  return { starts, leaders, fused, targets };
}

/** A JUMP macro's target (`12`, or a fused jump's `12 + 1`) as a number; NaN for anything else. */
function jumpTarget(target: string): number {
  return /^\d+( \+ \d+)?$/.test(target) ? target.split('+').reduce((sum, term) => sum + Number(term), 0) : NaN;
}

/**
 * The compiled tier's way of reading operands (literals), moving ip (absolute) and transferring control.
 * `nextCase` is the case that follows this block's case in the switch, whose label is `chain`: a jump
 * there breaks out of this case, to it, without the switch.
 */
function compiledTier(
  code: Int32Array,
  leader: number,
  depths: Int32Array | null = null,
  nextCase = -1,
  loopCode = false,
  chain = '',
  entry = false,
  promotion = NO_PROMOTION,
  mapMethods: ReadonlyMap<number, number> | null = null,
  /** A loop's code: the constants it reads, each held in a local \`C<k>\` read where the loop is entered (hoistedConstants). */
  constants: Set<number> | null = null,
  /** A loop's code: the frame slots mirrored in locals \`S<k>\` (shadowSlots). */
  shadows: ReadonlySet<number> = NO_SHADOWS,
): Tier {
  // The promoted slots this block wrote since it last wrote them back on its straight-line path (at its
  // entry, all the loop writes: the block may be entered from anywhere).
  const dirty = new Set(promotion.written);
  const writeBack = () => [...dirty].map((k) => `stack[base + ${k}] = L${k}; `).join('');
  return {
    localHolder: (part, k, pending, inputs, write) => {
      const depth = depths?.[leader + part.pos] ?? -1;
      const slot = Number(k);
      // A slot a compiled loop holds in a local (promotedSlots) is there, wherever the stack's depth.
      if (promotion.slots.has(slot)) {
        if (write) dirty.add(slot);
        return `L${slot}`;
      }
      if (depth < 0 || !Number.isInteger(slot)) return undefined;
      const firstInput = depth - inputs;
      const firstPending = firstInput - pending.length;
      if (slot >= firstPending && slot < firstInput) return pending[slot - firstPending];
      // One of the part's own inputs (SET_LOCAL k naming its operand's slot, which the verifier accepts): a
      // read is the input; a write lands where the part's outputs go (or above them), so it is the stack's,
      // as the plain interpreter's is (nothing reads it before it is written again).
      if (slot >= firstInput && !write && part.def.kind === 'stack') {
        const input = part.def.inputs[slot - firstInput]!;
        return input.startsWith('_') ? undefined : input;
      }
      // A mirrored slot is read in its local, and written on the stack and in the local (the stack stays the truth).
      if (shadows.has(slot)) return write ? `stack[base + ${slot}] = S${slot}` : `S${slot}`;
      return `stack[base + ${slot}]`;
    },
    depthAt: (offset) => depths?.[leader + offset] ?? -1,
    ...(shadows.size > 0
      ? {
          shadow: (slot: number) => (shadows.has(slot) ? `S${slot}` : undefined),
          // The outputs a frame part wrote on the stack (from where its inputs began to the depth after it,
          // but those held in locals): each mirrored slot among them read again.
          afterFrame: (part: Part, pendingAfter: number) => {
            const pc = leader + part.pos;
            const operands = part.def.operands.map((_, k) => code[pc + 1 + k]!);
            const depth = depths![pc]!;
            const from = depth - stackEffect(popsOf(part.def), operands);
            const to = depth + stackEffect(stackOf(part.def), operands) - pendingAfter;
            const reread: string[] = [];
            for (let slot = from; slot < to; slot++) if (shadows.has(slot)) reread.push(`S${slot} = stack[base + ${slot}];`);
            return reread.join('\n');
          },
        }
      : {}),
    // A heap charge past maxHeap measures the stack: the slots this block changed go there first (on that road only: they stay dirty).
    beforeMeasure: () => writeBack(),
    // What a frame part calls may read the frame's slots (a callee's wait, a retained-heap measurement): the ones held in
    // locals go back first. Written on the block's straight-line path, the slots are clean after it
    // (not when written on one road of the part: an inline path's slow road).
    beforeFrame: (part, oneRoad = false) => {
      if (NO_WRITE_BACK.has(part.def.name)) return '';
      const text = writeBack();
      if (!oneRoad) dirty.clear();
      return text;
    },
    ...(constants !== null
      ? {
          constant: (k: string) => {
            constants.add(Number(k));
            return `C${k}`;
          },
        }
      : {}),
    // The map method an INVOKE's name constant picks (quickMapMethods): a number in the source, never the name.
    ...(mapMethods !== null ? { quickMapMethod: (constant: string) => mapMethods.get(Number(constant)) } : {}),
    word: (offset) => String(code[leader + offset]!),
    position: (offset) => String(leader + offset),
    moveIp: (_cur, to) => `ip = ${leader + to};`,
    startsAt: -1,
    labelsFrameParts: true,
    sharedPart: (part) => {
      if (!OUT_OF_LINE.has(part.def.name)) return null;
      const operands = part.def.operands.map((_, k) => String(code[leader + part.pos + 1 + k]!));
      const shared = `instruction_${part.def.name}(vm, fiber, ${['null', '0', 'ip', ...operands].join(', ')})`;
      if (part.def.fastPath === undefined) return callShared(shared, null);
      // The fast path (fast_INVOKE: an inline cache hit pushes the callee's frame) returns the
      // callee's code, called here, so V8's feedback on the call is this site's own; on a miss, the
      // shared instruction.
      // The callee's registers are arguments: its base (below the receiver and the arguments), its
      // sp, and the fuel pushFrame left in the fiber; its result is left at that base.
      // The fast path pops what lies above the receiver and the arguments (SUPER_INVOKE: the superclass).
      const argc = operands[1]!;
      const above = stackEffect(popsOf(part.def), part.def.operands.map((_, k) => code[leader + part.pos + 1 + k]!)) - Number(argc) - 1;
      return `{
        fiber.fuel = fuel;
        const entered = fast_${part.def.name}(vm, fiber, fn, ${['ip', 'sp', ...operands].join(', ')});
        if (entered !== null) {
          ${above > 0 ? `sp -= ${above};` : ''}
          const status = entered(vm, fiber, fiber.frameClosures[fc], sp - 1 - ${argc}, 0, sp);
          if (status !== RETURNED) return status;
          sp -= ${argc};
          fuel = fiber.fuel;
        } else ${callShared(shared, null)}
      }`;
    },
    fallThrough: '',
    controlMacros: (_part, label, continuation) => ({
      // A jump to the next case goes there by leaving this one, without the switch. The target is written as
      // one number (a fused jump's \`12 + 1\` is 13): an addition on the way out of a loop, the first time it
      // ran, had no type feedback, and V8 threw away the loop's optimized code there.
      JUMP: ([target]) => {
        const at = jumpTarget(target!);
        const to = Number.isNaN(at) ? target! : String(at);
        return at === nextCase ? `{ ip = ${to}; break ${chain}; }` : `{ ip = ${to}; continue next; }`;
      },
      // The first frame's return ends the run (out of line: it happens once). A cast loop's entry
      // (compiledEntrySource) leaves the fiber's end to the loop, which owns it, and drops the result.
      LEAVE: ([result]) => `{
        const leaveResult = ${result};
        ${entry ? 'if (fc === 1) { fiber.fuel = fuel; return FINISHED; }' : 'if (fc === 1) return finishRun(vm, fiber, leaveResult, fuel);'}
        stack[base] = leaveResult;
        fiber.fuel = fuel;
        fiber.frameCount = fc - 1;
        return RETURNED;
      }`,
      // The call continuations are shared functions (continuationSource), not pasted at every call.
      // A one-line continuation (PUSH_FRAME: the call itself) is pasted; a long one (CALL_VALUE) is called.
      GOTO: ([name]) =>
        definition(name!).body.trim().includes('\n')
          ? callShared(`continue_${name!}(vm, fiber, callTarget, callArgc, ip)`, label)
          : `{\n${continuation(name!)}\n}\nbreak ${label};`,
      DISPATCH: () => {
        throw new Error('BREAK is never compiled.');
      },
      // The frame pushed by a shared function (pushFrame, vm/compiled/enter.ts), the callee's compiled
      // code called here: V8's feedback on this call is this site's own, so it may inline the callee.
      // fiber.frameCount is fc throughout compiled code (a callee that returns restores it), and a
      // callee that returns leaves its result in place of the callee and arguments.
      ENTER: ([callee, argc]) => enterInline(callee!, argc!, label),
      CALL_OUT: ([slot, call]) => callOut(slot!, call!, `suspend(fiber, 'suspended', fc, ip, sp, fuel);\nreturn UNWOUND;`),
      // fiber.fuel is the fuel left wherever compiled code may throw (each charge writes it), so its
      // catch reads the fiber, not the local: a local read there is live at every call inside the try,
      // and V8 boxes it there (a new heap number per call when the fuel is not a small integer, as
      // cantrip run's unlimited fuel, Infinity, is not).
      CHARGE: ([n]) => `{ fuel -= ${n}; fiber.fuel = fuel; if (fuel < 0) throw fuelFault(fiber); }`,
      // HEAP is the CaseWriter's: its slow road (heapOverflow) leaves fiber.fuel at the fuel left.
      // The stack top a call out's callee may measure (fiber.frameCount is fc throughout compiled code).
      MEASURABLE: () => 'fiber.sp = sp',
      OUT_OF_FUEL: () => `{ fiber.fuel = fuel; throw fuelFault(fiber); }`,
      // A compiled loop's back edge: every LOOP_PAUSE-th leaves through the loop's way out, to be called again at the header (AGAIN).
      TIER_UP_AT: ([target]) => (loopCode ? `if (--untilPause === 0) { ip = ${target}; break next; }` : ''),
    }),
  };
}

/**
 * A call from compiled code: pushFrame's common case (every check passes,
 * nothing grows, the callee compiled) written at the site, which calls the
 * callee's compiled code itself; any other case through pushFrame (which
 * also skips the frame of a callee that ObjFunction.inline says it may:
 * an empty function or initializer, a getter, field stores). Then
 * `break label`. The checks and stores are pushFrame's (vm/compiled/enter.ts):
 * change both together.
 */
function enterInline(callee: string, argc: string, label: string): string {
  return `{
    const enterClosure = ${callee};
    const enterArgc = ${argc};
    const enterFn = enterClosure.fn;
    const enterCode = enterFn.compiled;
    const enterBase = sp - 1 - enterArgc;
    const enterFuel = fuel - enterFn.callFuel;
    let status;
    if (enterCode !== null && enterFn.inline === ${INLINE_NONE} && enterArgc === enterFn.arity && fc < enterFn.compiledDepth && fc < fiber.frameBudget && fc < fiber.frameIps.length && enterFuel >= 0 && enterBase + enterFn.maxStack <= stack.length) {
      fiber.frameIps[fc - 1] = ip;
      fiber.frameClosures[fc] = enterClosure;
      fiber.frameBases[fc] = enterBase;
      fiber.frameCount = fc + 1;
      fiber.fuel = enterFuel;
      status = enterCode(vm, fiber, enterClosure, enterBase, 0, sp);
    } else {
      fiber.fuel = fuel;
      status = pushFrame(vm, fiber, enterClosure, enterArgc, ip, sp)(vm, fiber, enterClosure, enterBase, 0, sp);
    }
    if (status !== RETURNED) return status;
    sp = enterBase + 1;
    fuel = fiber.fuel;
    break ${label};
  }`;
}

/** The parts of the block from `leader` to the next leader (or the end). */
function blockParts(code: Int32Array, starts: readonly number[], leaders: ReadonlySet<number>, fused: ReadonlySet<number>, from: number): Part[] {
  const parts: Part[] = [];
  for (let k = from; k < starts.length; k++) {
    const pc = starts[k]!;
    if (k > from && leaders.has(pc)) break;
    const leader = starts[from]!;
    const op = code[pc]!;
    const next = starts[k + 1];
    if (fused.has(pc) && next !== undefined) {
      parts.push({ def: definition('JUMP_IF_FALSE_POP'), pos: pc - leader, words: 3, follows: false });
      k++;
    } else {
      parts.push({ ...single(definition(OPCODES[op]!.name)), pos: pc - leader });
    }
    if (OPCODES[op]!.terminal === true) break;
  }
  return parts;
}

/**
 * Instructions compiled code runs through a shared function (`instruction_CALL`…)
 * rather than pasting their bodies at every use: the calls, whose slow paths
 * are long, and the variadic builders. The call continuations are shared too.
 */
const OUT_OF_LINE = new Set(['INVOKE', 'SUPER_INVOKE', 'BUILD_LIST', 'BUILD_MAP', 'TEMPLATE']);

/** The shared functions compiled code calls, by name, with their definitions. */
export const SHARED_HELPERS: readonly { readonly name: string; readonly def: Instruction; readonly fast?: true }[] = [
  ...INTERNAL_INSTRUCTIONS.continuations.map((def) => ({ name: `continue_${def.name}`, def })),
  ...INSTRUCTIONS.filter((def) => OUT_OF_LINE.has(def.name)).map((def) => ({ name: `instruction_${def.name}`, def })),
  ...INSTRUCTIONS.filter((def) => OUT_OF_LINE.has(def.name) && def.fastPath !== undefined).map((def) => ({ name: `fast_${def.name}`, def, fast: true as const })),
];

/**
 * Call a shared helper (`call`, an expression) with the registers in the
 * fiber; go on unless it left the frame. fiber.frameCount is fc throughout
 * compiled code: a helper or callee that returns leaves it as it was.
 */
function callShared(call: string, label: string | null): string {
  return `{
    fiber.sp = sp;
    fiber.fuel = fuel;
    const status = ${call};
    if (status !== RETURNED) return status;
    sp = fiber.sp;
    fuel = fiber.fuel;
    ${label === null ? '' : `break ${label};`}
  }`;
}

/**
 * The tier of a shared helper's body: ip is the instruction's end (a
 * parameter), its operands the parameters op0, op1.
 */
function helperTier(def: Instruction): Tier {
  const size = 1 + def.operands.length;
  return {
    ...compiledTier(new Int32Array(1), 0),
    word: (offset) => `op${offset - 1}`,
    position: (offset) => (offset === size ? 'ip' : `(ip - ${size - offset})`),
    moveIp: () => '',
    startsAt: size,
    sharedPart: () => null,
  };
}

/**
 * An instruction's fast path as a shared function, `(vm, fiber, fn, ip, op0,
 * op1) => code`: when it takes the fast path to a call (GOTO(PUSH_FRAME)), it
 * pushes the callee's frame (pushFrame) and returns the code the call site
 * then calls; when it falls through, null (the site runs the instruction).
 */
export function fastPathSource(name: string, def: Instruction): string {
  const tier = helperTier(def);
  const fastTier: Tier = {
    ...tier,
    controlMacros: (part, label, continuation) => ({
      ...tier.controlMacros(part, label, continuation),
      GOTO: ([target]) => {
        if (target !== 'PUSH_FRAME') throw new Error(`${def.name}: a fast path only goes on to a call.`);
        return 'return pushFrame(vm, fiber, callTarget, callArgc, ip, sp);';
      },
    }),
  };
  const body = new CaseWriter(fastTier, [single({ ...def, body: def.fastPath! })], 'f').write();
  return stripTypes(
    formatCode(
      `function ${name}(vm, fiber, fn, ip, sp, op0, op1) {
${vmTables(body)}
const stack = fiber.stack;
let callTarget, callArgc;
${body}
return null;
}`,
      0,
    ),
  );
}

/**
 * A shared helper: `(vm, fiber, callTarget, callArgc, ip, op0, op1) => status`,
 * RETURNED when the instruction is done and the caller goes on, otherwise
 * what a callee returned.
 */
export function helperSource(name: string, def: Instruction): string {
  // What comes after the fast path (fast_INVOKE, which each use tries first).
  const body = new CaseWriter(helperTier(def), [single({ ...def, body: def.slowPath ?? def.body })], 'h').write();
  return stripTypes(
    formatCode(
      `function ${name}(vm, fiber, callTarget, callArgc, ip, op0, op1) {
${vmTables(body)}
const stack = fiber.stack;
let sp = fiber.sp;
let fuel = fiber.fuel;
let fc = fiber.frameCount;
const closure = fiber.frameClosures[fc - 1];
const fn = closure.fn;
const base = fiber.frameBases[fc - 1];
try {
${body}
fiber.sp = sp;
fiber.fuel = fuel;
fiber.frameCount = fc;
return RETURNED;
} catch (error) {
throw unwound(error, fiber, fc, ip, sp, fiber.fuel);
}
}`,
      0,
    ),
  );
}

/**
 * The blocks reachable from the block at `from`, each block's successors,
 * and the blocks that end in a LOOP back to `from` (its back edges).
 */
function flow(code: Int32Array, starts: readonly number[], leaders: ReadonlySet<number>, fused: ReadonlySet<number>, from: number) {
  const index = new Map(starts.map((pc, k) => [pc, k]));
  const successors = new Map<number, number[]>();
  const latches: number[] = [];
  const reached = new Set<number>();
  const work = [from];
  while (work.length > 0) {
    const pc = work.pop()!;
    if (reached.has(pc) || !leaders.has(pc) || !index.has(pc)) continue;
    reached.add(pc);
    const next: number[] = [];
    const parts = blockParts(code, starts, leaders, fused, index.get(pc)!);
    for (const part of parts) {
      const at = pc + part.pos;
      OPCODES[code[at]!]!.operands.forEach((kind, k) => {
        if (kind !== 'jump') return;
        const target = code[at + 1 + k]!;
        next.push(part.def.name === 'JUMP_IF_FALSE_POP' ? target + 1 : target);
        if (code[at] === Op.LOOP && target === from) latches.push(pc);
      });
    }
    const last = parts[parts.length - 1]!;
    if (last.def.terminal !== true) next.push(pc + last.pos + last.words);
    successors.set(pc, next);
    work.push(...next);
  }
  return { reached, successors, latches };
}

/**
 * The blocks of the loop whose header is `header` (the target of a LOOP):
 * the blocks reachable from the header that reach a back edge to it again.
 */
function loopBlocks(code: Int32Array, starts: readonly number[], leaders: ReadonlySet<number>, fused: ReadonlySet<number>, header: number): Set<number> {
  const { successors, latches } = flow(code, starts, leaders, fused, header);
  // Backwards from the back edges to the header, within what the header reaches (through each block's
  // predecessors: a scan of every block's successors per block was quadratic in a large function).
  const predecessors = new Map<number, number[]>();
  for (const [from, next] of successors) {
    for (const to of next) {
      const known = predecessors.get(to);
      if (known === undefined) predecessors.set(to, [from]);
      else known.push(from);
    }
  }
  const loop = new Set<number>([header]);
  const back = [...latches];
  while (back.length > 0) {
    const pc = back.pop()!;
    if (loop.has(pc)) continue;
    loop.add(pc);
    for (const from of predecessors.get(pc) ?? []) if (!loop.has(from)) back.push(from);
  }
  return loop;
}

/**
 * The bytecode words the code of `fn`'s loop at `header` compiles (the blocks of the loop: loopBlocks),
 * worked out without writing it, or -1 when the code holds what the compiled tier does not run.
 */
export function loopWords(fn: ObjFunction, header: number): number {
  const code = fn.original;
  const analysis = analyse(code);
  if (analysis === null) return -1;
  const { starts, leaders, fused } = analysis;
  const index = new Map(starts.map((pc, k) => [pc, k]));
  let words = 0;
  for (const pc of loopBlocks(code, starts, leaders, fused, header)) {
    const k = index.get(pc);
    if (k === undefined) continue;
    const last = blockParts(code, starts, leaders, fused, k).at(-1)!;
    words += last.pos + last.words;
  }
  return words;
}

/**
 * The JavaScript source of `fn`'s compiled code (a function expression), or
 * null when it cannot be compiled. With `header`, the code of that loop alone
 * (a hot loop of a function that runs on the interpreter, such as a script's
 * top level): it is entered at the header, and leaving the loop leaves the
 * rest of the function to the interpreter. `counted.words` grows by the words
 * compiled.
 */
export function compiledFunctionSource(
  module: Module,
  fn: ObjFunction,
  header?: number,
  counted?: { words: number },
  /** Only a source written before (for the same code and depths): null rather than write one (FunctionCompiler.compileRemembered). */
  rememberedOnly = false,
): string | null {
  return functionSource(module, fn, header, counted, false, rememberedOnly);
}

/**
 * The source of `fn`'s frame-0 entry for a cast loop (ObjFunction.loopEntry,
 * a function of at most 2 parameters): `(vm, fiber, closure, a0, a1) =>
 * status`, the whole function's code entered at its start as the first and
 * only frame of a loop's fiber (frame 0 at base 0, its closure already in
 * stack[0]). It writes its arguments into their slots itself, and its
 * return ends the run without `finishRun`: it stores the fuel left, drops
 * the result and returns FINISHED, the fiber still running and live — the
 * loop, which owns the fiber, ends it (vm/cast-loops.ts, runHeldPair). Anything
 * else (a wait, a failure, the rest left to the interpreter) is what the
 * function's compiled code does. Null when the function cannot be compiled.
 */
export function compiledEntrySource(module: Module, fn: ObjFunction, counted?: { words: number }): string | null {
  if (fn.arity > 2) return null;
  return functionSource(module, fn, undefined, counted, true);
}

function functionSource(
  module: Module,
  fn: ObjFunction,
  header: number | undefined,
  counted: { words: number } | undefined,
  entry: boolean,
  rememberedOnly = false,
): string | null {
  const code = fn.original;
  // The verifier's facts: the stack depth at every instruction (it throws on code it does not accept).
  // Verified for this module every time; the source written from them is remembered.
  let depths: Int32Array | null = null;
  const analysis = analyse(code);
  if (analysis !== null) depths = stackDepths(module, fn.index);
  // A loop's code holds some slots in locals, not those the module's closures capture (promotedSlots, shadowSlots).
  const captured = header !== undefined && analysis !== null ? capturedSlots(module, code, analysis.starts) : new Set<number>();
  const mapMethods = analysis !== null ? quickMapMethods(module, code, analysis.starts) : new Map<number, number>();
  const key = `${fn.index} ${header ?? ''}${entry ? ` entry ${fn.arity}` : ''} ${code.join(',')} ${depths?.join(',') ?? ''} ${[...captured].join(',')} ${[...mapMethods].join(';')}`;
  let written = SOURCES.get(key);
  if (written === undefined) {
    if (rememberedOnly) return null;
    const wordsBefore = counted?.words ?? 0;
    const source = depths === null ? null : writeFunctionSource(fn.index, code, depths, header, counted, entry ? fn.arity : -1, captured, mapMethods);
    written = { source, words: (counted?.words ?? 0) - wordsBefore };
    SOURCES.set(key, written);
    sourceChars += key.length + (source?.length ?? 0);
    // The oldest go first (a Map keeps insertion order).
    while (sourceChars > MAX_SOURCE_CHARS && SOURCES.size > 1) {
      const [oldKey, old] = SOURCES.entries().next().value!;
      sourceChars -= oldKey.length + (old.source?.length ?? 0);
      SOURCES.delete(oldKey);
    }
  } else if (counted !== undefined) counted.words += written.words;
  return written.source;
}

/**
 * For each method-name constant the code's INVOKEs use, the quick map method
 * it names (an index in QUICK_MAP_METHODS; -1: none). Compiled code then calls
 * that method's helper, or, for any other name, writes no inline path at all
 * (CaseWriter, QUICK_MAP): the name is not tested at run time. A module's
 * constants are fixed, and the choice is part of the remembered source's key,
 * so the same code with other names gets its own source.
 */
function quickMapMethods(module: Module, code: Int32Array, starts: readonly number[]): Map<number, number> {
  const methods = new Map<number, number>();
  for (const pc of starts) {
    if (code[pc] !== Op.INVOKE) continue;
    const constant = code[pc + 1]!;
    const name = module.constants[constant];
    methods.set(constant, QUICK_MAP_METHODS.indexOf(name as (typeof QUICK_MAP_METHODS)[number]));
  }
  return methods;
}

/**
 * The source written for a function's code, its verified stack depths and a
 * loop header, by all of these (and the function's index, in its name): it
 * holds nothing else. Every VM of the same program compiles the same code,
 * and writing the source took 1–7 ms (the verifier's 0.1 ms is still paid).
 */
const SOURCES = new Map<string, { readonly source: string | null; readonly words: number }>();
const MAX_SOURCE_CHARS = 16_000_000;
let sourceChars = 0;

/** compiledFunctionSource's work: the source of a function (or of its loop at `header`) from its code and verified depths. */
function writeFunctionSource(
  index: number,
  code: Int32Array,
  depths: Int32Array,
  header: number | undefined,
  counted: { words: number } | undefined,
  entryArity: number,
  captured: ReadonlySet<number>,
  mapMethods: ReadonlyMap<number, number>,
): string | null {
  const entry = entryArity >= 0;
  const analysis = analyse(code)!;
  const { starts, leaders, fused } = analysis;
  // A whole function: the blocks reachable from its start (the interpreter enters compiled code only
  // there and at loop headers; the block after a `return` that ends the function is dead code).
  const wanted = header === undefined ? flow(code, starts, leaders, fused, 0).reached : loopBlocks(code, starts, leaders, fused, header);
  if (header !== undefined && !wanted.has(header)) return null;
  const cases: string[] = [];
  // The blocks' temporaries, declared once for the function (a declaration at each block's entry
  // stored undefined in each of them every time the block ran, until V8 optimized the function).
  let temps = 0;
  let localSlot = false;
  // The blocks, and the order of their cases: a block is followed by the one it falls through to,
  // or else by the target of its closing JUMP or LOOP when that is not placed yet, so straight-line
  // code (a for loop's body and increment, an if's end) runs without going back to the switch.
  const blocks = new Map<number, { parts: Part[]; fallsTo: number; jumpsTo: number }>();
  starts.forEach((pc, k) => {
    if (!leaders.has(pc) || !wanted.has(pc)) return;
    const parts = blockParts(code, starts, leaders, fused, k);
    const last = parts[parts.length - 1]!;
    const end = pc + last.pos;
    const jumps = last.def.name === 'JUMP' || last.def.name === 'LOOP';
    blocks.set(pc, { parts, fallsTo: last.def.terminal === true ? -1 : end + last.words, jumpsTo: jumps ? code[end + 1]! : -1 });
  });
  // Neither promoted nor mirrored: a slot a closure captures, or one an instruction of the loop but GET_LOCAL / SET_LOCAL names.
  const held = header === undefined ? null : unheldSlots(code, blocks, captured);
  const promotion = held === null ? NO_PROMOTION : promotedSlots(code, depths, blocks, held);
  const shadows = held === null ? NO_SHADOWS : shadowSlots(code, blocks, promotion, held);
  const calls = [...blocks.values()].some(({ parts }) => parts.some((part) => part.def.kind === 'frame' && !NO_WRITE_BACK.has(part.def.name)));
  const constants = header === undefined || !calls ? null : new Set<number>();
  const order: number[] = [];
  const placed = new Set<number>();
  for (const leader of blocks.keys()) {
    for (let pc = leader; blocks.has(pc) && !placed.has(pc); ) {
      order.push(pc);
      placed.add(pc);
      const { fallsTo, jumpsTo } = blocks.get(pc)!;
      pc = fallsTo >= 0 ? fallsTo : jumpsTo;
    }
  }
  // A block only ever entered from the one before it (not a jump's target, nor where the code is entered)
  // shares that block's case: an \`if\` with no \`else\` is one case, its condition's jump past the body a
  // \`break\` to the next case.
  const fusedTargets = new Set([...fused].map((pc) => code[pc + 1]! + 1));
  const enteredAlone = (pc: number) => pc === 0 || pc === header || analysis.targets.has(pc) || fusedTargets.has(pc);
  const chains: number[][] = [];
  const chainBodies: string[] = [];
  order.forEach((pc, k) => {
    const before = order[k - 1];
    if (before !== undefined && !enteredAlone(pc) && blocks.get(before)!.fallsTo === pc) chains[chains.length - 1]!.push(pc);
    else chains.push([pc]);
  });
  chains.forEach((chain, c) => {
    const nextCase = chains[c + 1]?.[0] ?? -1;
    const label = `s${chain[0]}`;
    const bodies = chain.map((pc, k) => {
      const { parts, fallsTo } = blocks.get(pc)!;
      const tier = compiledTier(code, pc, depths, nextCase, header !== undefined, label, entry, promotion, mapMethods, constants, shadows);
      const { body, temps: used, localSlot: usesLocalSlot } = new CaseWriter(tier, parts, `b${pc}_`).writeBody();
      temps = Math.max(temps, used);
      localSlot ||= usesLocalSlot;
      const last = parts[parts.length - 1]!;
      if (counted !== undefined) counted.words += last.pos + last.words;
      // A block that does not fall through to what follows it (or that leaves a compiled loop) goes on through the switch.
      const viaSwitch = fallsTo >= 0 && fallsTo !== (chain[k + 1] ?? nextCase);
      return `{\n${body}${viaSwitch ? '\ncontinue next;' : ''}\n}`;
    });
    chainBodies.push(bodies.join('\n'));
    cases.push(`case ${chain[0]}: ${label}: {\n${chainBodies[c]}\n}`);
  });
  const name = entry ? `entry_${index}` : header === undefined ? `compiled_${index}` : `compiled_${index}_loop_${header}`;
  const all = cases.join('\n');
  const hoisted = hoistedConstants(constants);
  // Every function declares the same locals: declaring only those used made small functions' bytecode
  // smaller, so V8 inlined other callees into a loop of 30 calls, and that loop ran ~15% slower.
  const locals = [
    'callTarget = closure',
    'callArgc = 0',
    ...Array.from({ length: temps }, (_, i) => `t${i}`),
    ...(localSlot ? ['localSlot = 0'] : []),
    ...(promotion.load !== '' ? [promotion.load] : []),
    ...[...shadows].sort((a, b) => a - b).map((k) => `S${k} = stack[base + ${k}]`),
  ];
  // One block that never jumps (a function without branches): no dispatch.
  const straight = header === undefined && chains.length === 1 && wanted.size === 1 && !/\b(continue next|break s\d+)\b/.test(all);
  const body = straight
    ? `if (ip !== 0) return toInterpreter(fiber, fc, ip, sp, fuel);\n${chainBodies[0]}`
    : `${header === undefined ? '' : `let untilPause = ${LOOP_PAUSE};`}
next: for (;;) {
switch (ip) {
${all}
default:
// Not a block's start (a return address after a wait), or outside a compiled loop: the interpreter goes on from here.
${header === undefined ? 'return toInterpreter(fiber, fc, ip, sp, fuel);' : 'break next;'}
}
}
${header === undefined ? '' : `// The loop's way out, which its pauses take too (AGAIN: called again at the header).\n${promotion.writeBack}toInterpreter(fiber, fc, ip, sp, fuel);\nreturn untilPause === 0 ? AGAIN : UNWOUND;`}`;
  // A loop's entry (compiledEntrySource): frame 0 at base 0, from its start, the arguments stored where the interpreter has them.
  const args = Array.from({ length: Math.max(0, entryArity) }, (_, i) => `a${i}`);
  const registers = entry
    ? `const base = 0;\nlet ip = 0;\nlet sp = ${1 + entryArity};\nconst stack = fiber.stack;\n${args.map((a, i) => `stack[${1 + i}] = ${a};`).join('\n')}\nlet fuel = fiber.fuel;\nlet fc = 1;`
    : 'const stack = fiber.stack;\nlet fuel = fiber.fuel;\nlet fc = fiber.frameCount;';
  return stripTypes(formatCode(
    `function ${name}(${entry ? ['vm', 'fiber', 'closure', ...args].join(', ') : 'vm, fiber, closure, base, ip, sp'}) {
${vmTables(hoisted + all)}
${hoisted}const fn = closure.fn;
${registers}
${locals.length > 0 ? `let ${locals.join(', ')};` : ''}
try {
${body}
} catch (error) {
${promotion.writeBack}throw unwound(error, fiber, fc, ip, sp, fiber.fuel);
}
}`,
    0,
  ));
}

/**
 * The VM's tables a function's source reads, loaded from its `vm` argument
 * at entry (compiled code is shared by every VM of the process: the same
 * JavaScript function for the same source, so V8's feedback on the calls it
 * makes and receives stays that of one target whatever the VM).
 */
function vmTables(body: string): string {
  return VM_TABLES.filter(([name]) => new RegExp(`\\b${name}\\b`).test(body))
    .map(([name, field]) => `const ${name} = vm.${field};`)
    .join('\n');
}

/** The names compiled code uses for a VM's tables, and the InterpreterVM fields they are. */
const VM_TABLES: readonly (readonly [string, string])[] = [
  ['constants', 'constants'],
  ['globals', 'globals'],
  ['globalNames', 'globalNames'],
  ['functions', 'functions'],
  ['hostImports', 'hostImports'],
  ['ctx', 'ctx'],
  ['print', 'printFn'],
];
