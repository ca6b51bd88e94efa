/**
 * Everything the instruction bodies (vm/instructions/) call or read by name,
 * in one place: the generated interpreter imports these names and the
 * compiled tier's functions receive them (vm/compiled/compile.ts). A body
 * that needs something new gets it by adding it here.
 */

export { quoted } from '../bounded-text.js';
export { HEAP_COST } from '../costs.js';
export { displayBounded, displayValue } from '../display.js';
export { hostArityMessage } from '../host.js';
export { ObjMap } from '../map-object.js';
export { quickMapGet, quickMapHas, quickMapMethod, quickMapRemove } from '../map-methods.js';
export { ObjBoundMethod, ObjClass, ObjClosure, ObjHostFunction, ObjInstance, ObjList, isHostObject } from '../objects.js';
export { templateText } from '../template.js';
export { AGAIN, BACK_EDGE_SAMPLE, COMPILED_DEPTH_LIMIT, FINISHED, RETURNED, UNWOUND } from '../compiled/statuses.js';
export { unwound } from '../compiled/unwind.js';
export { runCompiledFrame } from '../compiled/compiled-frame.js';
export { chargeOutput, checkBudgetsAfterHost, heapOver } from './charges.js';
export { heapOverflow } from '../retained-heap.js';
export { Fault, fuelFault } from './fault.js';
export { fail, growFrames, growStackCharged, suspend, waits } from './frames.js';
export { callBuiltinMethod, callHost, callHostWithMany, checkHost, checkHostSpilled, hostFailed, invokeOther, leaveHost } from './host-calls.js';
export { NO_UPVALUES, captureUpvalues, closeUpvalues, lastCapture } from './upvalues.js';
export {
  UNDEFINED,
  checkHostResult,
  checkIndex,
  concatStrings,
  getInstanceProperty,
  getMapEntry,
  getOtherProperty,
  hostEquals,
  inherit,
  methodTables,
  methodsChanged,
  setMapEntry,
  setProperty,
} from './value-ops.js';
export { finishRun, pushFrame, toInterpreter } from '../compiled/enter.js';
