/** The interpreter handing a frame to compiled code. */

import type { Fiber } from '../fiber.js';
import type { InterpreterVM } from '../interpreter/interpreter-vm.js';
import { waits } from '../interpreter/frames.js';
import type { ObjClosure, ObjFunction } from '../objects.js';
import { AGAIN, FINISHED, RETURNED, UNWOUND } from './statuses.js';

/**
 * The interpreter hands its top frame to compiled code (its registers already
 * in the fiber): true when the run is over for now (finished, or waiting);
 * false when the interpreter goes on from the innermost frame it left.
 */
export function runCompiledFrame(
  vm: InterpreterVM,
  fiber: Fiber,
  code: NonNullable<ObjFunction['compiled']>,
  closure: ObjClosure,
  base: number,
  ip: number,
): boolean {
  let status = code(vm, fiber, closure, base, ip, fiber.sp);
  // A compiled loop pauses at its header now and then (AGAIN, vm/compiled/statuses.ts): on it goes.
  while (status === AGAIN) status = code(vm, fiber, closure, base, fiber.frameIps[fiber.frameCount - 1]!, fiber.sp);
  // A compiled function that returns leaves its result at its base (the caller knows where its stack ends).
  if (status === RETURNED) {
    fiber.sp = base + 1;
    return false;
  }
  return status === FINISHED || (status === UNWOUND && waits(fiber));
}
