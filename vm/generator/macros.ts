/** Expanding the macros of an instruction body (see vm/instructions/define.ts). */

export type Macro = (args: string[]) => string;

/** The balanced-bracket arguments of a macro call whose `(` is at `open`. */
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

/** Replace each `NAME(args)` of `macros` in `text`, the arguments expanded first. */
export function expandCalls(text: string, macros: Readonly<Record<string, Macro>>): string {
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

/**
 * Frame slot `slot` read where the values `pending` hold are logically on the stack at sp, sp + 1, …
 * (the verifier's live slots end there: only a part without inputs reads one, CaseWriter checks).
 */
export function localRead(slot: string, pending: readonly string[]): string {
  if (pending.length === 0) return `stack[${slot}]!`;
  let pick = pending[pending.length - 1]!;
  for (let i = pending.length - 2; i >= 0; i--) pick = `localSlot === sp + ${i} ? ${pending[i]} : ${pick}`;
  return `((localSlot = ${slot}) < sp ? stack[localSlot]! : ${pick})`;
}

/**
 * Frame slot `slot` written where the values `pending` hold are logically on the stack at sp, sp + 1, ….
 * A slot above them is one of the writing part's own inputs (SET_LOCAL naming its operand's slot, which
 * the verifier accepts): written on the stack, as the plain interpreter writes it (the part's outputs go
 * there, so nothing reads it first), never into the last pending value.
 */
export function localWrite(slot: string, value: string, pending: readonly string[]): string {
  if (pending.length === 0) return `stack[${slot}] = ${value}`;
  let store = `stack[localSlot] = ${value}`;
  for (let i = pending.length - 1; i >= 0; i--) store = `if (localSlot === sp + ${i}) ${pending[i]} = ${value}; else ${store}`;
  return `if ((localSlot = ${slot}) < sp) stack[localSlot] = ${value}; else ${store}`;
}

/** Indent generated code by its brackets. */
export function formatCode(text: string, pad: number): string {
  let depth = 0;
  return text
    .split('\n')
    .map((line) => {
      const t = line.trim();
      if (t === '') return '';
      const closesFirst = /^[}\])]/.test(t);
      if (closesFirst) depth = Math.max(0, depth - 1);
      const out = ' '.repeat(pad) + '  '.repeat(depth) + t;
      const opens = (t.match(/[{[(]/g) ?? []).length;
      const closes = (t.match(/[}\])]/g) ?? []).length;
      depth = Math.max(0, depth + opens - closes + (closesFirst ? 1 : 0));
      return out;
    })
    .join('\n');
}

/** What CALL_OUT does first when the callee asked the fiber to wait (the CaseWriter puts the values it holds in locals on the stack right after). */
export const CLEAR_SUSPEND = 'ctx.suspendRequested = false;';

/** CALL_OUT's last statement: the result pushed (the CaseWriter may hold it in a local instead: see PUSH_CALL_RESULT's use there). */
export const PUSH_CALL_RESULT = 'stack[sp++] = callResult;';

/**
 * CALL_OUT in either tier: call out of the VM with the registers in the fiber
 * and its context, then push the result, or leave with `suspended` (a
 * statement) when the callee asked the fiber to wait.
 */
export function callOut(slot: string, call: string, suspended: string): string {
  return `{
    fiber.fuel = fuel;
    ctx.fn = fn;
    ctx.ip = ip;
    const callResult = ${call};
    fuel = fiber.fuel;
    sp = ${slot};
    if (ctx.suspendRequested) {
      ${CLEAR_SUSPEND}
      ${suspended}
    }
    ${PUSH_CALL_RESULT}
  }`;
}

/**
 * LEAVE in the interpreter (compiled code writes its own: the result at the
 * frame's base, finishRun for the first frame, vm/compiled/function-source.ts): pop the frame and put `result` where the caller's
 * call was; the run ends with `finished` (a statement) when it was the first
 * frame, else goes on with `back` (a statement: the caller's registers).
 */
export function leave(result: string, finished: string, back: string): string {
  return `fc--;
    if (fc === 0) {
      fiber.result = ${result};
      fiber.fuel = fuel;
      vm.finish(fiber, 'done');
      ${finished}
    }
    sp = base;
    stack[sp++] = ${result};
    ${back}`;
}
