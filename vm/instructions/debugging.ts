/** The debugger's breakpoint instruction. */

import { frameInstruction } from './define.js';

/**
 * Internal: the debugger patches it over the first instruction of a line while
 * attached (vm/debugger.ts). It never appears in a compiled module; the verifier rejects it.
 */
export const BREAK = frameInstruction(
  'BREAK',
  [],
  { pops: 0, stack: 0 },
  'debugger breakpoint: pause, or run the instruction it replaced',
  `const handler = vm.breakHandler;
   if (handler !== null && !fiber.debugSkipBreak) {
     frameIps[fc - 1] = AT;
     fiber.frameCount = fc;
     fiber.sp = sp;
     if (handler.shouldPause(fiber, fn, AT, fc)) return suspend(fiber, 'paused', fc, AT, sp, fuel);
   }
   fiber.debugSkipBreak = false;
   DISPATCH(fn.original[AT]!);`,
  { mayFail: false },
);
