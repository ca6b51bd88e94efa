/**
 * The public VM API: load a Module, run its script, cast its spells on
 * fibers, resume them; the host-function contract; values and errors; the
 * .spb format, the verifier and the disassembler.
 */

export { VM, type VMOptions, type BreakHandler } from './vm.js';
export { Fiber, type FiberState } from './fiber.js';
export { RunOutcome } from './run-outcome.js';
export { FastLoop } from './fast-loop.js';
export { FiberStoragePool } from './fiber-pool.js';
export { DEFAULT_BUDGETS, type Budgets, type RunKind } from './budgets.js';
export { CORE_HOST_FUNCTIONS } from './builtins.js';
export { displayValue, displayNumber } from './display.js';
export { SpellRuntimeError, HostError, VerifyError, type TraceFrame, type BudgetLimit } from './errors.js';
export {
  hostArity,
  hostFunction,
  type HostArg,
  type HostArgs,
  type HostReturn,
  type TypedHostFunction,
  type HostContext,
  type HostFunction,
  type HostFunctionSpec,
  type HostImplementation,
  type HostParam,
} from './host.js';
export { HOST_VALUE_TYPES, MAX_HOST_PARAMS, hostSpecProblem, joinHostTables } from './host-table.js';
export { hostApiDeclaration, HOST_API_FORMAT, HOST_API_VERSION, type HostApiDeclaration } from './host-api-json.js';
export type { Value, ValueType, VmObject, HostObject } from './value.js';
export type { Module, FunctionProto, FunctionKind, HostImport, SpellEntry, UpvalueDescriptor, LocalVariableInfo } from './module.js';
export { ObjList, ObjInstance, ObjClass, ObjClosure, ObjBoundMethod, ObjHostFunction, isHostObject, valuesEqual } from './objects.js';
export { OPCODES, Op, OPCODE_COUNT, instructionSize, type OpcodeInfo, type OperandKind } from './opcodes.js';
export { writeSpb, readSpb, looksLikeSpb } from './spb.js';
export { verifyModule } from './verifier.js';
export { disassemble } from './disassembler.js';
export { Debugger, type StepMode, type FrameView, type LocalView } from './debugger.js';
export { saveVm, restoreVm, VM_SNAPSHOT_FORMAT, type VmSnapshot, type FiberJson, type FrameJson } from './fiber-snapshot.js';
export type { HostObjectCodec, ValueJson, ObjectJson } from './heap-snapshot.js';
