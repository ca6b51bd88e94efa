/** An error escaping compiled code, with the registers of the frame it was thrown in (for the trace). */

import type { Fiber } from '../fiber.js';

export class Unwind {
  constructor(
    readonly error: unknown,
    readonly fc: number,
    readonly ip: number,
    readonly sp: number,
    readonly fuel: number,
  ) {}
}

/** What a compiled function's catch rethrows: the innermost frame's registers travel with the error. */
export function unwound(error: unknown, fiber: Fiber, fc: number, ip: number, sp: number, fuel: number): Unwind {
  if (error instanceof Unwind) return error;
  // A host function that threw may have charged fiber.fuel past the compiled code's copy.
  return new Unwind(error, fc, ip, sp, Math.min(fuel, fiber.fuel));
}
