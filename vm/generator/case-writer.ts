/**
 * Writes a sequence of instruction definitions as TypeScript: a case of the
 * interpreter's switch (one instruction, or a superinstruction's several), or
 * a basic block of a compiled function. Values pass from one part to the next
 * in locals (`t0`, `t1`…) and reach the stack only when a part needs it: a
 * frame part (calls, returns, builders), a jump, the end of the sequence.
 *
 * `ip` convention: the sequence starts with ip one past its first opcode word.
 * Before a part that can fail, ip is moved past that part, so an error reports
 * the line of the instruction that failed, exactly as the plain code would.
 */

import { CLEAR_SUSPEND, PUSH_CALL_RESULT, expandCalls, localRead, localWrite } from './macros.js';
import { definition, type Part } from './parts.js';
import type { Instruction } from '../instructions/define.js';
import { ParamCheck } from '../objects.js';
import type { Tier } from './tier.js';
import { QUICK_MAP_METHODS } from '../map-methods.js';

export class CaseWriter {
  private readonly lines: string[] = [];
  private readonly pending: string[] = [];
  private temps = 0;
  private labels = 0;
  private usesLocalSlot = false;
  /** ip's offset from the current base. */
  private cur: number;

  constructor(
    private readonly tier: Tier,
    private readonly parts: readonly Part[],
    /** A prefix that keeps this sequence's labels apart from other sequences' in one function. */
    private readonly labelPrefix = 'p',
  ) {
    this.cur = tier.startsAt;
  }

  /** The sequence's statements (declarations first). */
  write(): string {
    const { body, temps, localSlot } = this.writeBody();
    const declared = Array.from({ length: temps }, (_, i) => `t${i}: Value`);
    if (localSlot) declared.push('localSlot = 0');
    return [...(declared.length > 0 ? [`let ${declared.join(', ')};`] : []), body].join('\n');
  }

  /**
   * The sequence's statements without declarations: the temporaries `t0` …
   * `t${temps - 1}` (and `localSlot` when `localSlot`) are the caller's to
   * declare (a compiled function declares them once for all its blocks, not
   * at every block's entry).
   */
  writeBody(): { body: string; temps: number; localSlot: boolean } {
    const only = this.parts.length === 1 ? this.parts[0]! : null;
    if (only !== null && only.def.kind === 'stack' && !/\bJUMP\(/.test(only.def.body)) return { body: this.writeAlone(only), temps: 0, localSlot: false };
    for (const part of this.parts) {
      if (part.def.kind === 'frame') this.frame(part);
      else this.stackPart(part);
      if (part.follows) this.cur = 1;
    }
    const last = this.parts[this.parts.length - 1]!;
    if (!last.def.terminal) {
      this.flush(this.depthAt(last.pos + last.words));
      this.moveIp(last.pos + last.words);
      if (this.tier.fallThrough !== '') this.lines.push(this.tier.fallThrough);
    }
    return { body: this.lines.join('\n'), temps: this.temps, localSlot: this.usesLocalSlot };
  }

  /**
   * One instruction that works on the stack: its inputs read from the stack
   * and its outputs written back in place, with no temporaries (what the
   * hand-written interpreter did; with temporaries, plain instructions ran
   * ~30% slower).
   */
  private writeAlone(part: Part): string {
    const def = part.def;
    if (def.kind !== 'stack') throw new Error('unreachable');
    const inputs = def.inputs;
    const outputs = def.outputs;
    const body: string[] = [];
    if (def.mayFail) body.push(...this.divert(() => this.moveIp(part.pos + part.words)));
    inputs.forEach((name, i) => {
      if (!name.startsWith('_')) body.push(`const ${name} = stack[sp - ${inputs.length - i}]!;`);
    });
    for (const name of new Set(outputs)) if (!inputs.includes(name)) body.push(`let ${name}: Value;`);
    const text = this.expandBody(part, `${this.labelPrefix}${this.labels++}`).trim();
    if (/localSlot/.test(text)) throw new Error(`${def.name}: alone, a frame slot is never held in a local.`);
    if (text !== '') body.push(text);
    // Output k goes where the stack's (inputs - k)th value from the top was; an input pushed back unchanged in its own slot is not written.
    const depth = this.depthAt(part.pos);
    outputs.forEach((name, k) => {
      const offset = k - inputs.length;
      const slot = offset === 0 ? 'sp' : offset < 0 ? `sp - ${-offset}` : `sp + ${offset}`;
      if (inputs[k] !== name) body.push(`stack[${slot}] = ${this.mirror(depth, depth + offset)}${name};`);
    });
    const delta = outputs.length - inputs.length;
    if (delta !== 0) body.push(delta > 0 ? `sp += ${delta};` : `sp -= ${-delta};`);
    this.lines.push(block(body.join('\n')));
    this.moveIp(part.pos + part.words);
    if (this.tier.fallThrough !== '') this.lines.push(this.tier.fallThrough);
    return this.lines.join('\n');
  }

  private moveIp(to: number): void {
    if (to !== this.cur) this.lines.push(this.tier.moveIp(this.cur, to));
    this.cur = to;
  }

  /**
   * A host call's arguments held in locals (taken off the pending values),
   * or null when they go on the stack: where the body reads them with ARG
   * (CALL_HOST), its argument count is a literal (the compiled tier), at
   * most 3, and every argument is a pending value. The pending values below
   * them stay pending (the body's wait puts them on the stack).
   */
  private heldArguments(part: Part): string[] | null {
    if (!/\bARG\(/.test(part.def.body)) return null;
    const word = this.tier.word(part.pos + 1 + part.def.operands.indexOf('count'), this.cur);
    if (!/^\d+$/.test(word)) return null;
    const argc = Number(word);
    if (argc > 3 || this.pending.length < argc) return null;
    return this.pending.splice(this.pending.length - argc, argc);
  }

  /** The stack's depth before the part at `offset`, or -1 when the tier does not know it. */
  private depthAt(offset: number): number {
    return this.tier.depthAt?.(offset) ?? -1;
  }

  /**
   * `S7 = ` when the tier mirrors the frame slot at `position` (`depth`: the stack's depth where
   * the write is, -1 when not known; see Tier.shadow), otherwise nothing.
   */
  private mirror(depth: number, position: number): string {
    if (this.tier.shadow === undefined) return '';
    if (depth < 0) throw new Error('A mirrored frame slot written where the stack depth is not known.');
    const shadow = this.tier.shadow(position);
    return shadow === undefined ? '' : `${shadow} = `;
  }

  /** Put the values held in temporaries on the stack (`depth`: the stack's depth with them on it, -1 when not known). */
  private flush(depth: number): void {
    if (this.pending.length === 0) return;
    const bottom = depth - this.pending.length;
    this.pending.forEach((t, i) => this.lines.push(`stack[${i === 0 ? 'sp' : `sp + ${i}`}] = ${this.mirror(depth, bottom + i)}${t};`));
    this.lines.push(`sp += ${this.pending.length};`);
    this.pending.length = 0;
  }

  /** A frame part, then the mirrors of the slots its outputs wrote on the stack reread (Tier.afterFrame). */
  private frame(part: Part): void {
    this.framePart(part);
    const after = this.tier.afterFrame?.(part, this.pending.length) ?? '';
    if (after !== '') this.lines.push(after);
  }

  private framePart(part: Part): void {
    const shared = this.tier.sharedPart?.(part) ?? null;
    if (shared !== null && this.inlinePath(part) !== undefined && this.heldInline(part, shared)) return;
    const last = part === this.parts[this.parts.length - 1];
    const held = shared === null ? this.heldArguments(part) : null;
    // Without held arguments everything goes to the stack first; with them, the values below stay in
    // locals unless the call ends the sequence (its result then goes on the stack, above them).
    if (held === null || last) this.flush(this.depthAt(part.pos));
    this.moveIp(part.pos + part.words);
    const inline = shared !== null ? this.inlinePath(part) : undefined;
    if (shared !== null && inline !== undefined) {
      // The inline path pasted here, the shared function called when it falls through (what goes
      // before a frame part goes on that road only: the inline path calls nothing that reads the frame).
      const label = `${this.labelPrefix}${this.labels++}`;
      const quick = this.expandBody({ ...part, def: { ...part.def, body: inline } }, label);
      this.lines.push(`${label}: {\n${quick.trim()}\n${this.tier.beforeFrame?.(part, true) ?? ''}${shared}\n}`);
      return;
    }
    const before = this.tier.beforeFrame?.(part) ?? '';
    if (before !== '') this.lines.push(before);
    if (shared !== null) {
      this.lines.push(shared);
      return;
    }
    checkHeapCharges(part.def, held !== null);
    const label = `${this.labelPrefix}${this.labels++}`;
    let text = this.expandBody(part, label, held);
    if (held !== null && this.pending.length > 0) {
      // The values below the arguments stay in their locals across the call; a fiber that waits has them on its stack.
      if (text.split(CLEAR_SUSPEND).length !== 2) throw new Error(`${part.def.name}: CALL_OUT's wait not found once.`);
      const spill = this.pending.map((t, i) => `stack[${i === 0 ? 'sp' : `sp + ${i}`}] = ${t};`);
      text = text.replace(CLEAR_SUSPEND, [CLEAR_SUSPEND, ...spill, `sp += ${this.pending.length};`].join('\n'));
    }
    // A call out whose one way on is its result (CALL_HOST): the result is held in a local, as a
    // stack part's output is, until a later part takes it or needs the stack. A host's number then
    // goes to the next instruction as it is, not boxed into the stack and read back.
    // (Not for the sequence's last part, whose result would go to the stack at once: an interpreter case.)
    const result = !last && holdsCallResult(part.def.body) ? `t${this.temps++}` : null;
    if (result !== null) {
      if (text.split(PUSH_CALL_RESULT).length !== 2) throw new Error(`${part.def.name}: CALL_OUT's push not found once.`);
      text = text.replace(PUSH_CALL_RESULT, `${result} = callResult;`);
    }
    const body = block(text);
    this.lines.push(this.tier.labelsFrameParts ? `${label}: ${body}` : body);
    if (result !== null) this.pending.push(result);
  }

  /**
   * A frame part's inline path, or undefined when it has none or the tier knows it would do nothing
   * (INVOKE of a method name that is none of the quick map methods: not even the receiver's test is written).
   */
  private inlinePath(part: Part): string | undefined {
    const inline = part.def.inlinePath;
    const name = part.def.operands.indexOf('name');
    if (inline === undefined || name < 0 || this.tier.quickMapMethod === undefined) return inline;
    return this.tier.quickMapMethod(this.tier.word(part.pos + 1 + name, this.cur)) === -1 ? undefined : inline;
  }

  /**
   * A frame part with an inline path (INVOKE's map methods) whose receiver
   * and arguments are all pending values: the inline path reads them in
   * their locals (INPUT) and holds its result in a new one (FINISH), so the
   * quick case (m.get(k), m.has(k)…) writes nothing to the stack. When it
   * falls through, every pending value goes to the stack, the shared
   * function runs as usual, and its result is taken back off the stack into
   * that local (the values below it are still in theirs, unchanged: nothing
   * called can write the caller's operand stack). False, having written
   * nothing, when the argument count is not a literal or 0, or a value is
   * not pending.
   */
  private heldInline(part: Part, shared: string): boolean {
    const word = this.tier.word(part.pos + 1 + part.def.operands.indexOf('count'), this.cur);
    // Without arguments an inline path has nothing to act on (INVOKE's is a map method's key): the call goes the plain way,
    // its result left on the stack for the next call on it (`toggle.activate().value()`), not taken off and put back.
    if (!/^\d+$/.test(word) || Number(word) === 0) return false;
    const count = Number(word) + 1;
    if (this.pending.length < count) return false;
    const held = this.pending.splice(this.pending.length - count, count);
    const below = [...this.pending];
    this.moveIp(part.pos + part.words);
    const label = `${this.labelPrefix}${this.labels++}`;
    const result = `t${this.temps++}`;
    const quick = this.expandBody({ ...part, def: { ...part.def, body: part.def.inlinePath! } }, label, null, ON_STACK, { held, result });
    const spill = [...below, ...held].map((t, i) => `stack[${i === 0 ? 'sp' : `sp + ${i}`}] = ${t};`);
    // What goes before a frame part goes on the slow road only (the quick one calls nothing that reads the frame).
    const before = this.tier.beforeFrame?.(part, true) ?? '';
    const slow = [...spill, `sp += ${spill.length};`, ...(before !== '' ? [before] : []), shared, `${result} = stack[sp - 1];`, `sp -= ${below.length + 1};`];
    this.lines.push(`${label}: {\n${quick.trim()}\n${slow.join('\n')}\n}`);
    this.pending.push(result);
    return true;
  }

  private stackPart(part: Part): void {
    const def = part.def;
    if (def.kind !== 'stack') throw new Error('unreachable');
    if (/\bstack\[/.test(def.body)) throw new Error(`${def.name}: a stack body reaches frame slots through LOCAL and STORE_LOCAL only.`);
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
    // A part that jumps leaves the sequence with the stack as the plain code has it.
    if (/\bJUMP\(/.test(def.body)) {
      if (def.outputs.length > 0) throw new Error(`${def.name}: a jumping stack instruction cannot push.`);
      body.unshift(...this.divert(() => this.flush(this.depthAt(part.pos) - inputs.length)));
    }
    if (def.mayFail) body.unshift(...this.divert(() => this.moveIp(part.pos + part.words)));
    for (const name of new Set(def.outputs)) if (!inputs.includes(name)) body.push(`let ${name}: Value;`);
    // A heap charge's measurement sees the stack as the plain interpreter has it at this part's start: the
    // inputs taken from the stack are still in place above sp; the values held in locals go above them.
    const roots = { top: fromStack > 0 ? `sp + ${fromStack}` : 'sp', held: [...this.pending, ...taken] };
    const text = this.expandBody(part, `${this.labelPrefix}${this.labels++}`, null, roots).trim();
    if (/localSlot/.test(text)) this.usesLocalSlot = true;
    if (text !== '') body.push(text);
    for (const name of def.outputs) {
      const t = `t${this.temps++}`;
      body.push(`${t} = ${name};`);
      this.pending.push(t);
    }
    if (body.length > 0) this.lines.push(block(body.join('\n')));
  }

  /** The lines `emit` adds, taken out of the sequence (for a part's block to start with). */
  private divert(emit: () => void): string[] {
    const before = this.lines.length;
    emit();
    return this.lines.splice(before);
  }

  /** Where frame slot `k` is, if the tier knows the stack's depth. */
  private holder(part: Part, k: string, write: boolean): string | undefined {
    const inputs = part.def.kind === 'stack' ? part.def.inputs.length : 0;
    return this.tier.localHolder?.(part, k, this.pending, inputs, write);
  }

  /**
   * A part's body with its macros expanded (`held`: a host call's arguments in locals, see heldArguments;
   * `roots`: where the stack as the plain interpreter has it at the part's start ends, `top`, and the
   * values held in locals that lie above it, in order — what a heap charge's measurement reads;
   * `inline`: an inline path's inputs held in locals and the local for its result, see heldInline).
   */
  private expandBody(
    part: Part,
    label: string,
    held: readonly string[] | null = null,
    roots: HeapRoots = ON_STACK,
    inline: { readonly held: readonly string[]; readonly result: string } | null = null,
  ): string {
    const { def, pos } = part;
    const cur = this.cur;
    const pending = this.pending;
    const tier = this.tier;
    const text = part.def.body
      .replace(/\$(\d)/g, (_, k: string) => tier.word(pos + 1 + Number(k), cur))
      .replace(/\bAT\b/g, tier.position(pos, cur))
      .replace(/\bNEXT\b/g, tier.position(pos + 1 + def.operands.length, cur))
      .replace(/\bIC\b/g, tier.position(pos + 1, cur));
    const continuation = (name: string): string => this.expandBody({ def: definition(name), pos, words: part.words, follows: false }, label);
    const done = tier.labelsFrameParts ? `break ${label}` : tier.fallThrough.replace(/;$/, '');
    return expandCalls(text, {
      FAULT: ([message]) => `throw new Fault(${message})`,
      CHARGE: ([n]) => `{ fuel -= ${n}; if (fuel < 0) throw fuelFault(fiber); }`,
      // The fast road an add and a compare; past maxHeap, the held values written where the plain
      // interpreter has them and the measurement told where the stack ends (vm/retained-heap.ts).
      HEAP: ([n]) => `{ if (heapOver(fiber, ${n})) {\n${tier.beforeMeasure?.() ?? ''}${spill(roots.top, roots.held)}fuel -= heapOverflow(fiber, fuel, ${above(roots.top, roots.held.length)}, fc);\n} }`,
      OUT_OF_FUEL: () => 'throw fuelFault(fiber)',
      DONE: () => done,
      // An inline path's k-th input of n (the receiver, then the arguments) and its result (see heldInline).
      INPUT: ([k, n]) => (inline !== null ? (inline.held[Number(k)] ?? 'undefined') : `stack[sp - (${n}) + ${k}]!`),
      // A quick map method (INVOKE's inline path): the run-time test of the name, or the method the tier knows the name's constant picks.
      QUICK_MAP: ([map, constant, argc, key, fallback]) => {
        const method = tier.quickMapMethod?.(constant!);
        if (method === undefined) return `quickMapMethod(${map}, constants[${constant}] as string, ${argc}, ${key}, ${fallback})`;
        switch (QUICK_MAP_METHODS[method]) {
          case 'get':
            return `quickMapGet(${map}, ${argc}, ${key}, ${fallback})`;
          case 'has':
            return `quickMapHas(${map}, ${argc}, ${key})`;
          case 'remove':
            return `quickMapRemove(${map}, ${argc}, ${key})`;
          default:
            return 'undefined';
        }
      },
      FINISH: ([value, n]) => (inline !== null ? `{ ${inline.result} = ${value}; ${done}; }` : `{ sp -= (${n}) - 1; stack[sp - 1] = ${value}; ${done}; }`),
      CONST: ([k]) => tier.constant?.(k!) ?? `constants[${k}]`,
      LOCAL: ([k]) => {
        const holder = this.holder(part, k!, false);
        if (holder !== undefined) return holder;
        // Where the tier does not place the slot, a part with inputs taken off the stack could name one of them.
        if (pending.length > 0 && def.kind === 'stack' && def.inputs.length > 0) throw new Error(`${def.name}: reads a frame slot and has inputs.`);
        return localRead(`base + ${k}`, pending);
      },
      STORE_LOCAL: ([k, value]) => {
        const holder = this.holder(part, k!, true);
        return holder !== undefined ? `${holder} = ${value}` : localWrite(`base + ${k}`, value!, pending);
      },
      ARG_BASE: ([argc]) => (held !== null ? 'sp' : `sp - ${argc}`),
      ARG: ([i]) => (held !== null ? (held[Number(i)] ?? 'null') : `stack[argBase + ${i}]!`),
      ENTER_HOST: ([host, argBase, argc]) =>
        held !== null
          ? heldHostCheck(host!, argBase!, argc!, held)
          : `checkHost(fiber, ${host}, ${argBase}, ${argc})`,
      ...tier.controlMacros(part, label, continuation),
      // A host call holding values in locals (see frame), to a host that may charge the heap
      // (MEASURABLE(host)), for a fiber whose heap counts what it retains: they are written where the
      // plain interpreter has them (the values below the arguments, then the arguments) and sp is told,
      // so that a charge past maxHeap measures them. Otherwise such a charge is the error at once (or
      // never happens), and nothing is written: a math builtin's call costs a compare more. A number is
      // written as 0 (it counts no units either way; a double written to the stack is boxed).
      ...(held !== null
        ? {
            MEASURABLE: ([host]) =>
              `if (fiber.retainedRoots !== null && ${host}.chargesHeap) {\n${spill('sp', [...pending, ...held].map((t) => `typeof ${t} === 'number' ? 0 : ${t}`))}fiber.sp = ${above('sp', pending.length + held.length)};\n}`,
          }
        : {}),
    });
  }
}

/** Where a heap charge's measurement reads the stack (see expandBody). */
interface HeapRoots {
  readonly top: string;
  readonly held: readonly string[];
}

/** Everything on the stack below sp: a single instruction's case, a frame part (its pending values flushed). */
const ON_STACK: HeapRoots = { top: 'sp', held: [] };

/**
 * ENTER_HOST for a host call whose arguments (at most 3) compiled code holds
 * in locals: each checked here against its parameter by the quick tests
 * (numbers, entities, any), so that each call site's feedback sees only the
 * values passed there; for a parameter of another type, a check that fails
 * or a host that charges before the call, checkHostSpilled writes them where
 * checkHost reads them (stack[argBase …], room the verifier counted) and
 * checks and charges as for any call, failing with its message. (Checked
 * through one shared function, checkHostHolding's, V8 left it a call in
 * `drift` once the function's inlining budget was spent, and its property
 * read saw every host object type of the process.)
 */
function heldHostCheck(host: string, argBase: string, argc: string, held: readonly string[]): string {
  const passes = held.map(
    (t, i) =>
      `(hostChecks[${i}] === ${ParamCheck.Number} ? typeof ${t} === 'number' : hostChecks[${i}] === ${ParamCheck.Entity} ? typeof ${t} === 'object' && ${t} !== null && ${t}.objectType === 'host' : hostChecks[${i}] === ${ParamCheck.Any})`,
  );
  const quick = passes.length === 0 ? '' : ` || (${passes.join(' && ')})`;
  const args = [0, 1, 2].map((i) => held[i] ?? 'null').join(', ');
  return `{\nconst hostChecks = ${host}.checks;\nif (${host}.chargesBefore || !(${host}.unchecked${quick})) checkHostSpilled(fiber, ${host}, ${argBase}, ${argc}, ${args});\n}`;
}

/** `top + count`, written plainly. */
function above(top: string, count: number): string {
  return count === 0 ? top : `${top} + ${count}`;
}

/** The statements writing `values` to the stack from `top` up. */
function spill(top: string, values: readonly string[]): string {
  return values.map((t, i) => `stack[${above(top, i)}] = ${t};\n`).join('');
}

/**
 * A frame body's heap charges measure the stack below sp (ON_STACK): it charges before it moves sp, and
 * not while a host call's values are held in locals (the body that holds them charges through the
 * host's context, after MEASURABLE).
 */
function checkHeapCharges(def: Instruction, holding: boolean): void {
  const at = def.body.search(/\bHEAP\(/);
  if (at < 0) return;
  if (holding) throw new Error(`${def.name}: a heap charge while a host call's values are held in locals.`);
  if (/\bsp\s*(=[^=]|\+=|-=|\+\+|--)|(\+\+|--)sp\b/.test(def.body.slice(0, at))) throw new Error(`${def.name}: a frame body charges the heap before it moves sp.`);
}

/** Whether a frame body's only way on is one CALL_OUT (no frame entered, no jump, no return): its result can be held in a local. */
function holdsCallResult(body: string): boolean {
  return body.split('CALL_OUT(').length === 2 && !/\b(ENTER|GOTO|LEAVE|JUMP|DISPATCH|RESUME_AT)\(/.test(body);
}

function block(text: string): string {
  return `{\n${text.trim()}\n}`;
}
