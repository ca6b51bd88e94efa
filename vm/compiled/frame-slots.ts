/**
 * How much of V8's stack a frame of a compiled function takes, estimated from
 * its source: V8's interpreter and baseline code give every `let` / `const` of
 * a function a register of its own (block-scoped ones are not shared between
 * sibling blocks), and a call's arguments more. The count is an upper bound
 * of the registers in practice (each declaration counts its commas, an
 * initializer's call arguments included), plus the frame's fixed part.
 */

/** Slots of a frame that every function has: return address, frame pointer, context, function, argument count, bytecode and its offset, the six parameters. */
const FIXED_SLOTS = 16;

/** The 8-byte stack slots a frame of the compiled function `source` takes, at most (see above). */
export function frameSlots(source: string): number {
  let slots = FIXED_SLOTS;
  for (const declaration of source.matchAll(/\b(?:let|const)\s[^;]*/g)) {
    slots += 1;
    for (const char of declaration[0]) if (char === ',') slots++;
  }
  return slots;
}
