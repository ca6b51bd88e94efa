/** Captured variables: CLOSURE's captures and closing them as their frame ends. */

import type { Fiber } from '../fiber.js';
import { ObjUpvalue, type ObjClosure, type ObjFunction } from '../objects.js';

/** What the last captureUpvalues did, for CLOSURE to charge: open-upvalue entries walked past (fuel), upvalue objects created (heap). */
export const lastCapture = { walked: 0, created: 0 };

/** The upvalues of a closure with none: shared, never written. */
export const NO_UPVALUES: ObjUpvalue[] = [];

/**
 * CLOSURE's captures. The open-upvalue list is sorted by decreasing stack slot, so the
 * locals are captured in that order (`captureOrder`) in ONE walk down the list: a
 * closure over n locals costs O(n + the frame's open upvalues), never n² (each capture
 * restarting the walk, as clox does, was quadratic). New upvalue objects are heap.
 */
export function captureUpvalues(fiber: Fiber, target: ObjFunction, enclosing: ObjClosure, base: number): ObjUpvalue[] {
  const descriptors = target.proto.upvalues;
  const upvalues = new Array<ObjUpvalue>(descriptors.length);
  const order = target.captureOrder;
  let previous: ObjUpvalue | null = null;
  let cursor = fiber.openUpvalues;
  let walked = 0;
  let created = 0;
  for (let k = 0; k < order.length; k++) {
    const i = order[k]!;
    const slot = base + descriptors[i]!.index;
    while (cursor !== null && cursor.index > slot) {
      previous = cursor;
      cursor = cursor.next;
      walked++;
    }
    if (cursor === null || cursor.index !== slot) {
      created++;
      const fresh = new ObjUpvalue(fiber.stack, slot);
      fresh.next = cursor;
      if (previous === null) fiber.openUpvalues = fresh;
      else previous.next = fresh;
      cursor = fresh;
    }
    upvalues[i] = cursor;
  }
  for (let i = 0; i < descriptors.length; i++) {
    const d = descriptors[i]!;
    if (!d.isLocal) upvalues[i] = enclosing.upvalues[d.index]!;
  }
  lastCapture.walked = walked;
  lastCapture.created = created;
  return upvalues;
}

export function closeUpvalues(fiber: Fiber, last: number): void {
  let upvalue = fiber.openUpvalues;
  while (upvalue !== null && upvalue.index >= last) {
    const next: ObjUpvalue | null = upvalue.next;
    upvalue.close();
    upvalue.next = null;
    upvalue = next;
  }
  fiber.openUpvalues = upvalue;
}
