// GENERATED FILE — do not edit. Written by vm/generator/interpreter-source.ts from the
// instruction definitions in vm/instructions/ and the superinstructions in vm/superinstructions.ts.
// `npm run generate` writes it again; vm/generator/interpreter-fresh.test.ts fails while it is stale.

/**
 * The interpreter: a clox-style stack machine running a fiber's frames until
 * it returns, waits, pauses at a breakpoint or fails. See
 * vm/generator/interpreter-source.ts for how it is written, and
 * vm/instructions/ for what each case does.
 */

import type { Fiber } from '../fiber.js';
import type { InterpreterVM } from '../interpreter/interpreter-vm.js';
import type { Value } from '../value.js';
import {
  AGAIN,
  BACK_EDGE_SAMPLE,
  COMPILED_DEPTH_LIMIT,
  FINISHED,
  Fault,
  HEAP_COST,
  NO_UPVALUES,
  ObjBoundMethod,
  ObjClass,
  ObjClosure,
  ObjHostFunction,
  ObjInstance,
  ObjList,
  ObjMap,
  RETURNED,
  UNDEFINED,
  UNWOUND,
  callBuiltinMethod,
  callHost,
  callHostWithMany,
  captureUpvalues,
  chargeOutput,
  checkBudgetsAfterHost,
  checkHost,
  checkHostResult,
  checkHostSpilled,
  checkIndex,
  closeUpvalues,
  concatStrings,
  displayBounded,
  displayValue,
  fail,
  finishRun,
  fuelFault,
  getInstanceProperty,
  getMapEntry,
  getOtherProperty,
  growFrames,
  growStackCharged,
  heapOver,
  heapOverflow,
  hostArityMessage,
  hostEquals,
  hostFailed,
  inherit,
  invokeOther,
  isHostObject,
  lastCapture,
  leaveHost,
  methodTables,
  methodsChanged,
  pushFrame,
  quickMapGet,
  quickMapHas,
  quickMapMethod,
  quickMapRemove,
  quoted,
  runCompiledFrame,
  setMapEntry,
  setProperty,
  suspend,
  templateText,
  toInterpreter,
  unwound,
  waits,
} from '../interpreter/helpers.js';

export function interpret(vm: InterpreterVM, fiber: Fiber): Fiber {
  const constants = vm.constants;
  const globals = vm.globals;
  const globalNames = vm.globalNames;
  const functions = vm.functions;
  const hostImports = vm.hostImports;
  const ctx = vm.ctx;
  const print = vm.printFn;
  const stack = fiber.stack;
  let frameIps = fiber.frameIps;
  let frameBases = fiber.frameBases;
  let frameClosures = fiber.frameClosures;
  let fc = fiber.frameCount;
  let frameLimit = Math.min(frameIps.length, fiber.frameBudget);
  let closure = frameClosures[fc - 1]!;
  let fn = closure.fn;
  let code = fn.code;
  let ip = frameIps[fc - 1]!;
  let base = frameBases[fc - 1]!;
  let sp = fiber.sp;
  let fuel = fiber.fuel;
  // The registers of the call continuations (PUSH_FRAME, CALL_VALUE).
  let callTarget: ObjClosure = closure;
  let callArgc = 0;
  // Back edges left before the next one is counted towards compiling its function (TIER_UP_AT).
  let backEdges = BACK_EDGE_SAMPLE;
  fiber.state = 'running';

  try {
    // A frame whose function is compiled starts there (a run of the compiled tier, or a resumed fiber);
    // a run from a function's start (a cast loop's spell, a script) counts as a call towards compiling it.
    if (fn.compiled !== null || (ip === 0 && (fn.untilCompiled -= fn.callFuel) <= 0 && vm.tierUp(fn))) {
      if (runCompiledFrame(vm, fiber, fn.compiled!, closure, base, ip)) return fiber;
      fc = fiber.frameCount;
      sp = fiber.sp;
      fuel = fiber.fuel;
      frameIps = fiber.frameIps;
      frameBases = fiber.frameBases;
      frameClosures = fiber.frameClosures;
      frameLimit = Math.min(frameIps.length, fiber.frameBudget);
      closure = frameClosures[fc - 1]!;
      fn = closure.fn;
      code = fn.code;
      base = frameBases[fc - 1]!;
      ip = frameIps[fc - 1]!;
    }
    next: for (;;) {
      let op = code[ip++]!;
      // The inner loop exists only so a case can re-dispatch (`continue dispatch`) to another
      // case: the call continuations, and BREAK running the instruction it replaced.
      dispatch: for (;;) {
        switch (op) {
          case 0 /* CONSTANT */: {
            {
              let value: Value;
              value = constants[code[ip]!]!;
              stack[sp] = value;
              sp += 1;
            }
            ip += 1;
            continue next;
          }
          case 1 /* NIL */: {
            {
              let value: Value;
              value = null;
              stack[sp] = value;
              sp += 1;
            }
            continue next;
          }
          case 2 /* TRUE */: {
            {
              let value: Value;
              value = true;
              stack[sp] = value;
              sp += 1;
            }
            continue next;
          }
          case 3 /* FALSE */: {
            {
              let value: Value;
              value = false;
              stack[sp] = value;
              sp += 1;
            }
            continue next;
          }
          case 4 /* POP */: {
            {
              sp -= 1;
            }
            continue next;
          }
          case 5 /* DUP */: {
            {
              const value = stack[sp - 1]!;
              stack[sp] = value;
              sp += 1;
            }
            continue next;
          }
          case 6 /* DUP2 */: {
            {
              const a = stack[sp - 2]!;
              const b = stack[sp - 1]!;
              stack[sp] = a;
              stack[sp + 1] = b;
              sp += 2;
            }
            continue next;
          }
          case 7 /* GET_LOCAL */: {
            {
              let value: Value;
              value = stack[base + code[ip]!]!;
              stack[sp] = value;
              sp += 1;
            }
            ip += 1;
            continue next;
          }
          case 8 /* SET_LOCAL */: {
            {
              const value = stack[sp - 1]!;
              stack[base + code[ip]!] = value;
            }
            ip += 1;
            continue next;
          }
          case 9 /* GET_GLOBAL */: {
            {
              ip += 1;
              let value: Value;
              value = globals[code[ip - 1]!]!;
              if (value === UNDEFINED) throw new Fault(`Undefined variable ${quoted(globalNames[code[ip - 1]!] ?? '')}.`);
              stack[sp] = value;
              sp += 1;
            }
            continue next;
          }
          case 10 /* DEFINE_GLOBAL */: {
            {
              const value = stack[sp - 1]!;
              globals[code[ip]!] = value;
              sp -= 1;
            }
            ip += 1;
            continue next;
          }
          case 11 /* SET_GLOBAL */: {
            {
              ip += 1;
              const value = stack[sp - 1]!;
              if (globals[code[ip - 1]!] === UNDEFINED) throw new Fault(`Undefined variable ${quoted(globalNames[code[ip - 1]!] ?? '')}.`);
              globals[code[ip - 1]!] = value;
            }
            continue next;
          }
          case 12 /* GET_UPVALUE */: {
            {
              let value: Value;
              const upvalue = closure.upvalues[code[ip]!]!;
              value = upvalue.cells[upvalue.index]!;
              stack[sp] = value;
              sp += 1;
            }
            ip += 1;
            continue next;
          }
          case 13 /* SET_UPVALUE */: {
            {
              const value = stack[sp - 1]!;
              const upvalue = closure.upvalues[code[ip]!]!;
              upvalue.cells[upvalue.index] = value;
            }
            ip += 1;
            continue next;
          }
          case 14 /* GET_PROPERTY */: {
            {
              ip += 1;
              const object = stack[sp - 1]!;
              let value: Value;
              if (object instanceof ObjInstance && object.shape === fn.icShape[(ip - 1)]) value = object.values[fn.icSlot[(ip - 1)]!]!;
              else {
                value = object instanceof ObjInstance ? getInstanceProperty(fn, (ip - 1), object, constants[code[ip - 1]!] as string) : getOtherProperty(object, constants[code[ip - 1]!] as string);
                if (value instanceof ObjBoundMethod) { if (heapOver(fiber, HEAP_COST.boundMethod)) {
                    fuel -= heapOverflow(fiber, fuel, sp, fc);
                  } };
              }
              stack[sp - 1] = value;
            }
            continue next;
          }
          case 15 /* SET_PROPERTY */: {
            {
              ip += 1;
              const object = stack[sp - 2]!;
              const value = stack[sp - 1]!;
              if (object instanceof ObjInstance && object.shape === fn.icShape[(ip - 1)]) {
                // Inline cache hit: store in the cached slot. When the cache is a transition (the next
                  // shape differs) the store adds a field.
                const next = fn.icNext[(ip - 1)]!;
                if (next === object.shape) object.values[fn.icSlot[(ip - 1)]!] = value;
                else {
                  object.addField(fn.icSlot[(ip - 1)]!, value);
                  object.shape = next;
                  { if (heapOver(fiber, HEAP_COST.field)) {
                      fuel -= heapOverflow(fiber, fuel, sp, fc);
                    } };
                }
              } else {
                // A new field, a new shape or a switch to dictionary mode is work and memory: charge both.
                const cost = setProperty(fn, (ip - 1), object, constants[code[ip - 1]!] as string, value);
                if (cost > 0) {
                  { fuel -= cost; if (fuel < 0) throw fuelFault(fiber); };
                  { if (heapOver(fiber, cost)) {
                      fuel -= heapOverflow(fiber, fuel, sp, fc);
                    } };
                }
              }
              stack[sp - 2] = value;
              sp -= 1;
            }
            continue next;
          }
          case 16 /* GET_SUPER */: {
            {
              ip += 1;
              const instance = stack[sp - 2]!;
              const superclass = stack[sp - 1]!;
              let bound: Value;
              if (!(superclass instanceof ObjClass)) throw new Fault('Superclass must be a class.');
              const method = superclass.methods.get(constants[code[ip - 1]!] as string);
              if (method === undefined) throw new Fault(`Undefined property ${quoted(constants[code[ip - 1]!] as string)}.`);
              { if (heapOver(fiber, HEAP_COST.boundMethod)) {
                  fuel -= heapOverflow(fiber, fuel, sp, fc);
                } };
              bound = new ObjBoundMethod(instance, method);
              stack[sp - 2] = bound;
              sp -= 1;
            }
            continue next;
          }
          case 17 /* GET_INDEX */: {
            {
              const list = stack[sp - 2]!;
              const index = stack[sp - 1]!;
              let value: Value;
              if (list instanceof ObjList && typeof index === 'number' && (index | 0) === index && index >= 0 && index < list.items.length) {
                value = list.items[index]!;
              } else {
                const found = list instanceof ObjMap ? list.lookup(index) : undefined;
                value = found !== undefined ? found : list instanceof ObjList ? list.items[checkIndex(list, index)]! : getMapEntry(list, index);
              }
              stack[sp - 2] = value;
              sp -= 1;
            }
            continue next;
          }
          case 18 /* SET_INDEX */: {
            {
              const list = stack[sp - 3]!;
              const index = stack[sp - 2]!;
              const value = stack[sp - 1]!;
              if (list instanceof ObjList) list.items[checkIndex(list, index)] = value;
              else if (list instanceof ObjMap && (typeof index === 'string' || (typeof index === 'number' && index === index && (index !== 0 || 1 / index > 0)))) {
                // A string or number key (not nan, which is refused, nor -0, whose sign the map keeps) is stored as itself.
                if (list.store(index, value)) { if (heapOver(fiber, HEAP_COST.mapEntry)) {
                    fuel -= heapOverflow(fiber, fuel, sp, fc);
                  } };
              } else if (setMapEntry(list, index, value)) { if (heapOver(fiber, HEAP_COST.mapEntry)) {
                  fuel -= heapOverflow(fiber, fuel, sp, fc);
                } };
              stack[sp - 3] = value;
              sp -= 2;
            }
            continue next;
          }
          case 19 /* EQUAL */: {
            {
              const a = stack[sp - 2]!;
              const b = stack[sp - 1]!;
              let result: Value;
              if (typeof a === 'string') {
                result = a === b;
                if (a.length > 64 && typeof b === 'string' && a.length === b.length) { fuel -= a.length >> 6; if (fuel < 0) throw fuelFault(fiber); };
              } else result = a === b || (isHostObject(a) && isHostObject(b) && hostEquals(a, b));
              stack[sp - 2] = result;
              sp -= 1;
            }
            continue next;
          }
          case 20 /* GREATER */: {
            {
              const a = stack[sp - 2]!;
              const b = stack[sp - 1]!;
              let result: Value;
              if (typeof a !== 'number' || typeof b !== 'number') throw new Fault('Operands must be numbers.');
              result = a > b;
              stack[sp - 2] = result;
              sp -= 1;
            }
            continue next;
          }
          case 21 /* LESS */: {
            {
              const a = stack[sp - 2]!;
              const b = stack[sp - 1]!;
              let result: Value;
              if (typeof a !== 'number' || typeof b !== 'number') throw new Fault('Operands must be numbers.');
              result = a < b;
              stack[sp - 2] = result;
              sp -= 1;
            }
            continue next;
          }
          case 22 /* ADD */: {
            {
              const a = stack[sp - 2]!;
              const b = stack[sp - 1]!;
              let result: Value;
              if (typeof a === 'number' && typeof b === 'number') result = a + b;
              else if (typeof a === 'string' && typeof b === 'string') {
                { if (heapOver(fiber, a.length + b.length)) {
                    fuel -= heapOverflow(fiber, fuel, sp, fc);
                  } };
                result = concatStrings(a, b);
              } else throw new Fault('Operands must be two numbers or two strings.');
              stack[sp - 2] = result;
              sp -= 1;
            }
            continue next;
          }
          case 23 /* SUBTRACT */: {
            {
              const a = stack[sp - 2]!;
              const b = stack[sp - 1]!;
              let result: Value;
              if (typeof a !== 'number' || typeof b !== 'number') throw new Fault('Operands must be numbers.');
              result = a - b;
              stack[sp - 2] = result;
              sp -= 1;
            }
            continue next;
          }
          case 24 /* MULTIPLY */: {
            {
              const a = stack[sp - 2]!;
              const b = stack[sp - 1]!;
              let result: Value;
              if (typeof a !== 'number' || typeof b !== 'number') throw new Fault('Operands must be numbers.');
              result = a * b;
              stack[sp - 2] = result;
              sp -= 1;
            }
            continue next;
          }
          case 25 /* DIVIDE */: {
            {
              const a = stack[sp - 2]!;
              const b = stack[sp - 1]!;
              let result: Value;
              if (typeof a !== 'number' || typeof b !== 'number') throw new Fault('Operands must be numbers.');
              result = a / b;
              stack[sp - 2] = result;
              sp -= 1;
            }
            continue next;
          }
          case 26 /* MODULO */: {
            {
              const a = stack[sp - 2]!;
              const b = stack[sp - 1]!;
              let result: Value;
              if (typeof a !== 'number' || typeof b !== 'number') throw new Fault('Operands must be numbers.');
              result = a % b;
              stack[sp - 2] = result;
              sp -= 1;
            }
            continue next;
          }
          case 27 /* NOT */: {
            {
              const value = stack[sp - 1]!;
              let result: Value;
              result = value === null || value === false;
              stack[sp - 1] = result;
            }
            continue next;
          }
          case 28 /* NEGATE */: {
            {
              const value = stack[sp - 1]!;
              let result: Value;
              if (typeof value !== 'number') throw new Fault('Operand must be a number.');
              result = -value;
              stack[sp - 1] = result;
            }
            continue next;
          }
          case 29 /* PRINT */: {
            {
              const value = stack[sp - 1]!;
              let text: string;
              if (typeof value === 'object' && value !== null) {
                // Printing a big (or self-nesting) list is work: bound it by the fuel left.
                const shown = displayBounded(value, fuel);
                if (shown === null) {
                  fuel = -1; // it walked all the text the fuel could pay for: all of it is spent
                  throw fuelFault(fiber);
                }
                text = shown;
              } else text = displayValue(value);
              // Text sent out costs 1 fuel per character and counts against the output budget (the newline too).
              { fuel -= text.length; if (fuel < 0) throw fuelFault(fiber); };
              chargeOutput(fiber, text.length + 1);
              print(text);
              sp -= 1;
            }
            continue next;
          }
          case 30 /* JUMP */: {
            {
              { ip = code[ip]!; continue next; };
            }
          }
          case 31 /* JUMP_IF_FALSE */: {
            ip += 1;
            {
              const condition = stack[sp - 1]!;
              if (condition === null || condition === false) { ip = code[ip - 1]!; continue next; };
            }
            continue next;
          }
          case 32 /* LOOP */: {
            {
              ip += 1;
              { fuel -= (ip) - code[ip - 1]!; if (fuel < 0) throw fuelFault(fiber); };
              if (--backEdges === 0) {
                backEdges = BACK_EDGE_SAMPLE;
                if ((fn.untilCompiled -= BACK_EDGE_SAMPLE * ((ip) - code[ip - 1]!)) <= 0) {
                  const loopCode = fn.compiled ?? vm.loopCode(fn, code[ip - 1]!);
                  if (loopCode !== null) {
                    fiber.sp = sp;
                    fiber.fuel = fuel;
                    fiber.frameCount = fc;
                    if (runCompiledFrame(vm, fiber, loopCode, closure, base, code[ip - 1]!)) return fiber;
                    { op = -3; continue dispatch; }
                  }
                }
              };
              { ip = code[ip - 1]!; continue next; };
            }
          }
          case 33 /* CALL */: {
            ip += 1;
            {
              const argc = code[ip - 1]!;
              const callee = stack[sp - 1 - argc]!;
              if (!(callee instanceof ObjClosure)) {
                callArgc = argc;
                { op = -2; continue dispatch; };
              }
              {
                const enterClosure = callee;
                const enterArgc = argc;
                const enterFn = enterClosure.fn;
                if (enterArgc !== enterFn.arity) throw new Fault(`Expected ${enterFn.arity} arguments but got ${enterArgc}.`);
                if (fc >= frameLimit) {
                  frameLimit = growFrames(fiber, fc);
                  frameIps = fiber.frameIps;
                  frameBases = fiber.frameBases;
                  frameClosures = fiber.frameClosures;
                }
                fuel -= enterFn.callFuel;
                if (fuel < 0) throw fuelFault(fiber);
                const newBase = sp - 1 - enterArgc;
                if (newBase + enterFn.maxStack > stack.length) fuel = growStackCharged(fiber, newBase + enterFn.maxStack, fuel);
                frameIps[fc - 1] = ip;
                frameClosures[fc] = enterClosure;
                frameBases[fc] = newBase;
                fc++;
                // A compiled function's untilCompiled is -Infinity: one test for "compiled, or hot now".
                if ((enterFn.untilCompiled -= enterFn.callFuel) <= 0 && (enterFn.compiled !== null || vm.tierUp(enterFn))) {
                  fiber.sp = sp;
                  fiber.fuel = fuel;
                  fiber.frameCount = fc;
                  if (runCompiledFrame(vm, fiber, enterFn.compiled!, enterClosure, newBase, 0)) return fiber;
                  { op = -3; continue dispatch; }
                }
                closure = enterClosure;
                fn = enterFn;
                code = enterFn.code;
                ip = 0;
                base = newBase;
                continue next;
              };
            }
            continue next;
          }
          case 34 /* INVOKE */: {
            ip += 2;
            {
              const cached = stack[sp - 1 - code[ip - 1]!]!;
              if (cached instanceof ObjInstance && cached.shape === fn.icShape[(ip - 2)]) {
                callTarget = fn.icMethod[(ip - 2)]!;
                callArgc = code[ip - 1]!;
                { op = -1; continue dispatch; };
              }
              const quickArgc = code[ip - 1]!;
              const mapReceiver = stack[sp - (quickArgc + 1) + 0]!;
              // The count first: compiled code has it as a literal, so at a call without arguments V8 drops
              // the whole test (the instanceof was done at every such INVOKE: invocation's 30 sites a loop).
              if (quickArgc > 0 && mapReceiver instanceof ObjMap) {
                // QUICK_MAP: quickMapMethod, or in compiled code the one method the name's constant picks (CaseWriter).
                const quick = quickMapMethod(mapReceiver, constants[code[ip - 2]!] as string, quickArgc, stack[sp - (quickArgc + 1) + 1]!, quickArgc > 1 ? stack[sp - (quickArgc + 1) + 2]! : undefined);
                if (quick !== undefined) { sp -= (quickArgc + 1) - 1; stack[sp - 1] = quick; continue next; };
              }
              const name = constants[code[ip - 2]!] as string;
              const argc = code[ip - 1]!;
              const receiverSlot = sp - 1 - argc;
              const receiver = stack[receiverSlot]!;
              callArgc = argc;
              if (receiver instanceof ObjInstance) {
                const field = receiver.getField(name);
                if (field !== undefined) {
                  // A field holding a function shadows a method of the same name (clox).
                  stack[receiverSlot] = field;
                  { op = -2; continue dispatch; };
                }
                const method = receiver.klass.methods.get(name);
                if (method === undefined) throw new Fault(`Undefined property ${quoted(name)}.`);
                if (!receiver.isDictionary) {
                  fn.icShape[(ip - 2)] = receiver.shape;
                  fn.icMethod[(ip - 2)] = method;
                }
                callTarget = method;
                { op = -1; continue dispatch; };
              }
              fiber.sp = sp;
              fiber.frameCount = fc;
              {
                fiber.fuel = fuel;
                ctx.fn = fn;
                ctx.ip = ip;
                const callResult = invokeOther(ctx, fiber, receiver, name, receiverSlot + 1, argc);
                fuel = fiber.fuel;
                sp = receiverSlot;
                if (ctx.suspendRequested) {
                  ctx.suspendRequested = false;
                  return suspend(fiber, 'suspended', fc, ip, sp, fuel);
                }
                stack[sp++] = callResult;
              };
            }
            continue next;
          }
          case 35 /* SUPER_INVOKE */: {
            ip += 2;
            {
              const cachedClass = stack[sp - 1]!;
              if (cachedClass instanceof ObjClass && cachedClass.rootShape === fn.icShape[(ip - 2)] && fn.icSlot[(ip - 2)] === methodTables.changes) {
                sp--;
                callTarget = fn.icMethod[(ip - 2)]!;
                callArgc = code[ip - 1]!;
                { op = -1; continue dispatch; };
              }
              const name = constants[code[ip - 2]!] as string;
              const superclass = stack[--sp]!;
              if (!(superclass instanceof ObjClass)) throw new Fault('Superclass must be a class.');
              const method = superclass.methods.get(name);
              if (method === undefined) throw new Fault(`Undefined property ${quoted(name)}.`);
              // The cache: this class (its root shape names it), while no class's methods change.
              fn.icShape[(ip - 2)] = superclass.rootShape;
              fn.icMethod[(ip - 2)] = method;
              fn.icSlot[(ip - 2)] = methodTables.changes;
              callTarget = method;
              callArgc = code[ip - 1]!;
              { op = -1; continue dispatch; };
            }
            continue next;
          }
          case 36 /* CALL_HOST */: {
            ip += 2;
            {
              const argc = code[ip - 1]!;
              const argBase = sp - argc;
              const hostFn = hostImports[code[ip - 2]!]!;
              fiber.fuel = fuel;
              ctx.fn = fn;
              ctx.ip = ip;
              const savedFiber = ctx.fiber;
              if (hostFn.chargesBefore || !hostFn.unchecked) checkHost(fiber, hostFn, argBase, argc);
              ctx.suspendRequested = false, ctx.fiber = fiber;
              fiber.sp = sp;
              fiber.frameCount = fc;
              const impl = hostFn.impl;
              let returned;
              try {
                returned =
                argc === 0 ? impl(ctx)
                : argc === 1 ? impl(ctx, stack[argBase + 0]!)
                : argc === 2 ? impl(ctx, stack[argBase + 0]!, stack[argBase + 1]!)
                : argc === 3 ? impl(ctx, stack[argBase + 0]!, stack[argBase + 1]!, stack[argBase + 2]!)
                : callHostWithMany(ctx, fiber, hostFn, argBase, argc);
              } catch (error) {
                throw hostFailed(ctx, savedFiber, fn, ip, hostFn, error);
              }
              ctx.fiber = savedFiber;
              ctx.fn = fn;
              ctx.ip = ip;
              if (fiber.fuel < 0 || fiber.heapUsed > fiber.budgets.maxHeap || fiber.outputUsed > fiber.budgets.maxOutput) checkBudgetsAfterHost(fiber);
              const hostResult = typeof returned === 'number' || returned === null ? returned : checkHostResult(returned, hostFn.name);
              fuel = fiber.fuel;
              {
                fiber.fuel = fuel;
                ctx.fn = fn;
                ctx.ip = ip;
                const callResult = hostResult;
                fuel = fiber.fuel;
                sp = argBase;
                if (ctx.suspendRequested) {
                  ctx.suspendRequested = false;
                  return suspend(fiber, 'suspended', fc, ip, sp, fuel);
                }
                stack[sp++] = callResult;
              };
            }
            continue next;
          }
          case 37 /* HOST_FUNCTION */: {
            {
              let host: Value;
              host = hostImports[code[ip]!]!;
              stack[sp] = host;
              sp += 1;
            }
            ip += 1;
            continue next;
          }
          case 38 /* CLOSURE */: {
            {
              ip += 1;
              let made: Value;
              const target = functions[code[ip - 1]!]!;
              const count = target.proto.upvalues.length;
              // Charged by the upvalues captured, the new upvalue objects and the open-upvalue entries walked (captureUpvalues).
              { if (heapOver(fiber, HEAP_COST.closure + count)) {
                  fuel -= heapOverflow(fiber, fuel, sp, fc);
                } };
              let upvalues = NO_UPVALUES;
              if (count > 0) {
                upvalues = captureUpvalues(fiber, target, closure, base);
                { if (heapOver(fiber, HEAP_COST.upvalue * lastCapture.created)) {
                    fuel -= heapOverflow(fiber, fuel, sp, fc);
                  } };
                { fuel -= count + lastCapture.walked; if (fuel < 0) throw fuelFault(fiber); };
              }
              made = new ObjClosure(target, upvalues);
              stack[sp] = made;
              sp += 1;
            }
            continue next;
          }
          case 39 /* CLOSE_UPVALUE */: {
            {
              closeUpvalues(fiber, sp - 1);
              sp--;
            }
            continue next;
          }
          case 40 /* RETURN */: {
            {
              const result = stack[sp - 1]!;
              if (fiber.openUpvalues !== null) closeUpvalues(fiber, base);
              fc--;
              if (fc === 0) {
                fiber.result = result;
                fiber.fuel = fuel;
                vm.finish(fiber, 'done');
                return fiber;
              }
              sp = base;
              stack[sp++] = result;
              closure = frameClosures[fc - 1]!;
              fn = closure.fn;
              code = fn.code;
              base = frameBases[fc - 1]!;
              ip = frameIps[fc - 1]!;
              continue next;;
            }
          }
          case 41 /* CLASS */: {
            {
              ip += 1;
              let klass: Value;
              { fuel -= HEAP_COST.class; if (fuel < 0) throw fuelFault(fiber); };
              { if (heapOver(fiber, HEAP_COST.class)) {
                  fuel -= heapOverflow(fiber, fuel, sp, fc);
                } };
              klass = new ObjClass(constants[code[ip - 1]!] as string);
              stack[sp] = klass;
              sp += 1;
            }
            continue next;
          }
          case 42 /* INHERIT */: {
            {
              const superclass = stack[sp - 2]!;
              const subclass = stack[sp - 1]!;
              if (!(superclass instanceof ObjClass)) throw new Fault('Superclass must be a class.');
              if (subclass instanceof ObjClass) {
                // Copying the method table is work and memory in proportion to its size: charged before copying.
                const copied = superclass.methods.size;
                { fuel -= copied; if (fuel < 0) throw fuelFault(fiber); };
                { if (heapOver(fiber, copied * HEAP_COST.method)) {
                    fuel -= heapOverflow(fiber, fuel, sp, fc);
                  } };
                inherit(subclass, superclass);
              }
              sp -= 1;
            }
            continue next;
          }
          case 43 /* METHOD */: {
            {
              ip += 1;
              const klass = stack[sp - 2]!;
              const method = stack[sp - 1]!;
              if (klass instanceof ObjClass && method instanceof ObjClosure) {
                const name = constants[code[ip - 1]!] as string;
                { if (heapOver(fiber, HEAP_COST.method)) {
                    fuel -= heapOverflow(fiber, fuel, sp, fc);
                  } };
                klass.methods.set(name, method);
                methodsChanged();
                if (name === 'init') klass.initializer = method;
              }
              sp -= 1;
            }
            continue next;
          }
          case 44 /* BUILD_LIST */: {
            ip += 1;
            {
              { if (heapOver(fiber, HEAP_COST.list + code[ip - 1]!)) {
                  fuel -= heapOverflow(fiber, fuel, sp, fc);
                } };
              const items = stack.slice(sp - code[ip - 1]!, sp);
              sp -= code[ip - 1]!;
              stack[sp++] = new ObjList(items);
            }
            continue next;
          }
          case 45 /* FOR_ITER */: {
            ip += 2;
            {
              const slot = base + code[ip - 2]!;
              const iterable = stack[slot]!;
              const index = stack[slot + 1]!;
              let list: ObjList;
              if (iterable instanceof ObjList) list = iterable;
              else {
                // A map is iterated over a snapshot of its keys taken as the loop starts: the body may
                // add or remove entries and the loop stays deterministic. The snapshot is a list on the heap.
                if (!(iterable instanceof ObjMap)) throw new Fault('Can only iterate over a list or a map.');
                { if (heapOver(fiber, HEAP_COST.list + iterable.size)) {
                    fuel -= heapOverflow(fiber, fuel, sp, fc);
                  } };
                { fuel -= iterable.size; if (fuel < 0) throw fuelFault(fiber); };
                stack[slot] = list = new ObjList(iterable.keys());
              }
              // Lists never hold `undefined`, so a missing element (past the end, or a bogus
                // index from hand-made bytecode) ends the loop.
              const item = typeof index === 'number' ? list.items[index] : undefined;
              if (item === undefined) { ip = code[ip - 1]!; continue next; };
              stack[sp++] = item;
              stack[slot + 1] = (index as number) + 1;
            }
            continue next;
          }
          case 46 /* BREAK */: {
            {
              const handler = vm.breakHandler;
              if (handler !== null && !fiber.debugSkipBreak) {
                frameIps[fc - 1] = (ip - 1);
                fiber.frameCount = fc;
                fiber.sp = sp;
                if (handler.shouldPause(fiber, fn, (ip - 1), fc)) return suspend(fiber, 'paused', fc, (ip - 1), sp, fuel);
              }
              fiber.debugSkipBreak = false;
              { op = fn.original[(ip - 1)]!; continue dispatch; };
            }
            continue next;
          }
          case 47 /* BUILD_MAP */: {
            ip += 1;
            {
              const first = sp - 2 * code[ip - 1]!;
              const map = new ObjMap();
              for (let i = first; i < sp; i += 2) setMapEntry(map, stack[i]!, stack[i + 1]!);
              { if (heapOver(fiber, HEAP_COST.map + HEAP_COST.mapEntry * map.size)) {
                  fuel -= heapOverflow(fiber, fuel, sp, fc);
                } };
              sp = first;
              stack[sp++] = map;
            }
            continue next;
          }
          case 48 /* TEMPLATE */: {
            ip += 1;
            {
              const first = sp - code[ip - 1]!;
              // Converting is work and the text is heap, as str() and `+` charge them.
              const text = templateText(stack, first, code[ip - 1]!, fuel);
              if (text === null) throw fuelFault(fiber);
              { fuel -= code[ip - 1]! + text.length; if (fuel < 0) throw fuelFault(fiber); };
              { if (heapOver(fiber, text.length)) {
                  fuel -= heapOverflow(fiber, fuel, sp, fc);
                } };
              sp = first;
              stack[sp++] = text;
            }
            continue next;
          }
          case -1 /* PUSH_FRAME */: {
            {
              {
                const enterClosure = callTarget;
                const enterArgc = callArgc;
                const enterFn = enterClosure.fn;
                if (enterArgc !== enterFn.arity) throw new Fault(`Expected ${enterFn.arity} arguments but got ${enterArgc}.`);
                if (fc >= frameLimit) {
                  frameLimit = growFrames(fiber, fc);
                  frameIps = fiber.frameIps;
                  frameBases = fiber.frameBases;
                  frameClosures = fiber.frameClosures;
                }
                fuel -= enterFn.callFuel;
                if (fuel < 0) throw fuelFault(fiber);
                const newBase = sp - 1 - enterArgc;
                if (newBase + enterFn.maxStack > stack.length) fuel = growStackCharged(fiber, newBase + enterFn.maxStack, fuel);
                frameIps[fc - 1] = ip;
                frameClosures[fc] = enterClosure;
                frameBases[fc] = newBase;
                fc++;
                // A compiled function's untilCompiled is -Infinity: one test for "compiled, or hot now".
                if ((enterFn.untilCompiled -= enterFn.callFuel) <= 0 && (enterFn.compiled !== null || vm.tierUp(enterFn))) {
                  fiber.sp = sp;
                  fiber.fuel = fuel;
                  fiber.frameCount = fc;
                  if (runCompiledFrame(vm, fiber, enterFn.compiled!, enterClosure, newBase, 0)) return fiber;
                  { op = -3; continue dispatch; }
                }
                closure = enterClosure;
                fn = enterFn;
                code = enterFn.code;
                ip = 0;
                base = newBase;
                continue next;
              };
            }
            continue next;
          }
          case -2 /* CALL_VALUE */: {
            {
              const argc = callArgc;
              const calleeSlot = sp - 1 - argc;
              const callee = stack[calleeSlot]!;
              if (callee instanceof ObjClosure) {
                const enterClosure = callee;
                const enterArgc = argc;
                const enterFn = enterClosure.fn;
                if (enterArgc !== enterFn.arity) throw new Fault(`Expected ${enterFn.arity} arguments but got ${enterArgc}.`);
                if (fc >= frameLimit) {
                  frameLimit = growFrames(fiber, fc);
                  frameIps = fiber.frameIps;
                  frameBases = fiber.frameBases;
                  frameClosures = fiber.frameClosures;
                }
                fuel -= enterFn.callFuel;
                if (fuel < 0) throw fuelFault(fiber);
                const newBase = sp - 1 - enterArgc;
                if (newBase + enterFn.maxStack > stack.length) fuel = growStackCharged(fiber, newBase + enterFn.maxStack, fuel);
                frameIps[fc - 1] = ip;
                frameClosures[fc] = enterClosure;
                frameBases[fc] = newBase;
                fc++;
                // A compiled function's untilCompiled is -Infinity: one test for "compiled, or hot now".
                if ((enterFn.untilCompiled -= enterFn.callFuel) <= 0 && (enterFn.compiled !== null || vm.tierUp(enterFn))) {
                  fiber.sp = sp;
                  fiber.fuel = fuel;
                  fiber.frameCount = fc;
                  if (runCompiledFrame(vm, fiber, enterFn.compiled!, enterClosure, newBase, 0)) return fiber;
                  { op = -3; continue dispatch; }
                }
                closure = enterClosure;
                fn = enterFn;
                code = enterFn.code;
                ip = 0;
                base = newBase;
                continue next;
              };
              if (callee instanceof ObjBoundMethod) {
                stack[calleeSlot] = callee.receiver;
                if (callee.method instanceof ObjClosure) {
                  const enterClosure = callee.method;
                  const enterArgc = argc;
                  const enterFn = enterClosure.fn;
                  if (enterArgc !== enterFn.arity) throw new Fault(`Expected ${enterFn.arity} arguments but got ${enterArgc}.`);
                  if (fc >= frameLimit) {
                    frameLimit = growFrames(fiber, fc);
                    frameIps = fiber.frameIps;
                    frameBases = fiber.frameBases;
                    frameClosures = fiber.frameClosures;
                  }
                  fuel -= enterFn.callFuel;
                  if (fuel < 0) throw fuelFault(fiber);
                  const newBase = sp - 1 - enterArgc;
                  if (newBase + enterFn.maxStack > stack.length) fuel = growStackCharged(fiber, newBase + enterFn.maxStack, fuel);
                  frameIps[fc - 1] = ip;
                  frameClosures[fc] = enterClosure;
                  frameBases[fc] = newBase;
                  fc++;
                  // A compiled function's untilCompiled is -Infinity: one test for "compiled, or hot now".
                  if ((enterFn.untilCompiled -= enterFn.callFuel) <= 0 && (enterFn.compiled !== null || vm.tierUp(enterFn))) {
                    fiber.sp = sp;
                    fiber.fuel = fuel;
                    fiber.frameCount = fc;
                    if (runCompiledFrame(vm, fiber, enterFn.compiled!, enterClosure, newBase, 0)) return fiber;
                    { op = -3; continue dispatch; }
                  }
                  closure = enterClosure;
                  fn = enterFn;
                  code = enterFn.code;
                  ip = 0;
                  base = newBase;
                  continue next;
                };
                fiber.sp = sp;
                fiber.frameCount = fc;
                {
                  fiber.fuel = fuel;
                  ctx.fn = fn;
                  ctx.ip = ip;
                  const callResult = callBuiltinMethod(ctx, fiber, callee.method, callee.receiver, calleeSlot + 1, argc);
                  fuel = fiber.fuel;
                  sp = calleeSlot;
                  if (ctx.suspendRequested) {
                    ctx.suspendRequested = false;
                    return suspend(fiber, 'suspended', fc, ip, sp, fuel);
                  }
                  stack[sp++] = callResult;
                };
              } else if (callee instanceof ObjClass) {
                { if (heapOver(fiber, HEAP_COST.instance)) {
                    fuel -= heapOverflow(fiber, fuel, sp, fc);
                  } };
                stack[calleeSlot] = new ObjInstance(callee);
                if (callee.initializer !== null) {
                  const enterClosure = callee.initializer;
                  const enterArgc = argc;
                  const enterFn = enterClosure.fn;
                  if (enterArgc !== enterFn.arity) throw new Fault(`Expected ${enterFn.arity} arguments but got ${enterArgc}.`);
                  if (fc >= frameLimit) {
                    frameLimit = growFrames(fiber, fc);
                    frameIps = fiber.frameIps;
                    frameBases = fiber.frameBases;
                    frameClosures = fiber.frameClosures;
                  }
                  fuel -= enterFn.callFuel;
                  if (fuel < 0) throw fuelFault(fiber);
                  const newBase = sp - 1 - enterArgc;
                  if (newBase + enterFn.maxStack > stack.length) fuel = growStackCharged(fiber, newBase + enterFn.maxStack, fuel);
                  frameIps[fc - 1] = ip;
                  frameClosures[fc] = enterClosure;
                  frameBases[fc] = newBase;
                  fc++;
                  // A compiled function's untilCompiled is -Infinity: one test for "compiled, or hot now".
                  if ((enterFn.untilCompiled -= enterFn.callFuel) <= 0 && (enterFn.compiled !== null || vm.tierUp(enterFn))) {
                    fiber.sp = sp;
                    fiber.fuel = fuel;
                    fiber.frameCount = fc;
                    if (runCompiledFrame(vm, fiber, enterFn.compiled!, enterClosure, newBase, 0)) return fiber;
                    { op = -3; continue dispatch; }
                  }
                  closure = enterClosure;
                  fn = enterFn;
                  code = enterFn.code;
                  ip = 0;
                  base = newBase;
                  continue next;
                };
                if (argc !== 0) throw new Fault(`Expected 0 arguments but got ${argc}.`);
              } else if (callee instanceof ObjHostFunction) {
                if (argc < callee.minArity || argc > callee.maxArity) throw new Fault(hostArityMessage(callee.host, argc));
                fiber.sp = sp;
                fiber.frameCount = fc;
                {
                  fiber.fuel = fuel;
                  ctx.fn = fn;
                  ctx.ip = ip;
                  const callResult = callHost(ctx, fiber, callee, calleeSlot + 1, argc);
                  fuel = fiber.fuel;
                  sp = calleeSlot;
                  if (ctx.suspendRequested) {
                    ctx.suspendRequested = false;
                    return suspend(fiber, 'suspended', fc, ip, sp, fuel);
                  }
                  stack[sp++] = callResult;
                };
              } else throw new Fault('Can only call functions and classes.');
            }
            continue next;
          }
          case 64 /* S_POP_LOOP_INC_LOOP: POP LOOP FOLLOW GET_LOCAL CONSTANT ADD SET_LOCAL POP LOOP */: {
            let t0: Value, t1: Value, t2: Value, t3: Value;
            {
              sp -= 1;
            }
            {
              ip += 2;
              { fuel -= (ip) - code[ip - 1]!; if (fuel < 0) throw fuelFault(fiber); };
              if (--backEdges === 0) {
                backEdges = BACK_EDGE_SAMPLE;
                if ((fn.untilCompiled -= BACK_EDGE_SAMPLE * ((ip) - code[ip - 1]!)) <= 0) {
                  const loopCode = fn.compiled ?? vm.loopCode(fn, code[ip - 1]!);
                  if (loopCode !== null) {
                    fiber.sp = sp;
                    fiber.fuel = fuel;
                    fiber.frameCount = fc;
                    if (runCompiledFrame(vm, fiber, loopCode, closure, base, code[ip - 1]!)) return fiber;
                    { op = -3; continue dispatch; }
                  }
                }
              };
              ip = (code[ip - 1]!) + 1;;
            }
            {
              let value: Value;
              value = stack[base + code[ip]!]!;
              t0 = value;
            }
            {
              let value: Value;
              value = constants[code[ip + 2]!]!;
              t1 = value;
            }
            {
              ip += 4;
              const a = t0 as Value;
              const b = t1 as Value;
              let result: Value;
              if (typeof a === 'number' && typeof b === 'number') result = a + b;
              else if (typeof a === 'string' && typeof b === 'string') {
                { if (heapOver(fiber, a.length + b.length)) {
                    stack[sp] = t0;
                    stack[sp + 1] = t1;
                    fuel -= heapOverflow(fiber, fuel, sp + 2, fc);
                  } };
                result = concatStrings(a, b);
              } else throw new Fault('Operands must be two numbers or two strings.');
              t2 = result;
            }
            {
              const value = t2 as Value;
              stack[base + code[ip + 1]!] = value;
              t3 = value;
            }
            {
              ip += 5;
              { fuel -= (ip) - code[ip - 1]!; if (fuel < 0) throw fuelFault(fiber); };
              if (--backEdges === 0) {
                backEdges = BACK_EDGE_SAMPLE;
                if ((fn.untilCompiled -= BACK_EDGE_SAMPLE * ((ip) - code[ip - 1]!)) <= 0) {
                  const loopCode = fn.compiled ?? vm.loopCode(fn, code[ip - 1]!);
                  if (loopCode !== null) {
                    fiber.sp = sp;
                    fiber.fuel = fuel;
                    fiber.frameCount = fc;
                    if (runCompiledFrame(vm, fiber, loopCode, closure, base, code[ip - 1]!)) return fiber;
                    { op = -3; continue dispatch; }
                  }
                }
              };
              { ip = code[ip - 1]!; continue next; };
            }
          }
          case 65 /* S_LOOP_INC_LOOP: LOOP FOLLOW GET_LOCAL CONSTANT ADD SET_LOCAL POP LOOP */: {
            let t0: Value, t1: Value, t2: Value, t3: Value;
            {
              ip += 1;
              { fuel -= (ip) - code[ip - 1]!; if (fuel < 0) throw fuelFault(fiber); };
              if (--backEdges === 0) {
                backEdges = BACK_EDGE_SAMPLE;
                if ((fn.untilCompiled -= BACK_EDGE_SAMPLE * ((ip) - code[ip - 1]!)) <= 0) {
                  const loopCode = fn.compiled ?? vm.loopCode(fn, code[ip - 1]!);
                  if (loopCode !== null) {
                    fiber.sp = sp;
                    fiber.fuel = fuel;
                    fiber.frameCount = fc;
                    if (runCompiledFrame(vm, fiber, loopCode, closure, base, code[ip - 1]!)) return fiber;
                    { op = -3; continue dispatch; }
                  }
                }
              };
              ip = (code[ip - 1]!) + 1;;
            }
            {
              let value: Value;
              value = stack[base + code[ip]!]!;
              t0 = value;
            }
            {
              let value: Value;
              value = constants[code[ip + 2]!]!;
              t1 = value;
            }
            {
              ip += 4;
              const a = t0 as Value;
              const b = t1 as Value;
              let result: Value;
              if (typeof a === 'number' && typeof b === 'number') result = a + b;
              else if (typeof a === 'string' && typeof b === 'string') {
                { if (heapOver(fiber, a.length + b.length)) {
                    stack[sp] = t0;
                    stack[sp + 1] = t1;
                    fuel -= heapOverflow(fiber, fuel, sp + 2, fc);
                  } };
                result = concatStrings(a, b);
              } else throw new Fault('Operands must be two numbers or two strings.');
              t2 = result;
            }
            {
              const value = t2 as Value;
              stack[base + code[ip + 1]!] = value;
              t3 = value;
            }
            {
              ip += 5;
              { fuel -= (ip) - code[ip - 1]!; if (fuel < 0) throw fuelFault(fiber); };
              if (--backEdges === 0) {
                backEdges = BACK_EDGE_SAMPLE;
                if ((fn.untilCompiled -= BACK_EDGE_SAMPLE * ((ip) - code[ip - 1]!)) <= 0) {
                  const loopCode = fn.compiled ?? vm.loopCode(fn, code[ip - 1]!);
                  if (loopCode !== null) {
                    fiber.sp = sp;
                    fiber.fuel = fuel;
                    fiber.frameCount = fc;
                    if (runCompiledFrame(vm, fiber, loopCode, closure, base, code[ip - 1]!)) return fiber;
                    { op = -3; continue dispatch; }
                  }
                }
              };
              { ip = code[ip - 1]!; continue next; };
            }
          }
          case 66 /* S_INC_LOCAL_LOOP: GET_LOCAL CONSTANT ADD SET_LOCAL POP LOOP */: {
            let t0: Value, t1: Value, t2: Value, t3: Value;
            {
              let value: Value;
              value = stack[base + code[ip]!]!;
              t0 = value;
            }
            {
              let value: Value;
              value = constants[code[ip + 2]!]!;
              t1 = value;
            }
            {
              ip += 4;
              const a = t0 as Value;
              const b = t1 as Value;
              let result: Value;
              if (typeof a === 'number' && typeof b === 'number') result = a + b;
              else if (typeof a === 'string' && typeof b === 'string') {
                { if (heapOver(fiber, a.length + b.length)) {
                    stack[sp] = t0;
                    stack[sp + 1] = t1;
                    fuel -= heapOverflow(fiber, fuel, sp + 2, fc);
                  } };
                result = concatStrings(a, b);
              } else throw new Fault('Operands must be two numbers or two strings.');
              t2 = result;
            }
            {
              const value = t2 as Value;
              stack[base + code[ip + 1]!] = value;
              t3 = value;
            }
            {
              ip += 5;
              { fuel -= (ip) - code[ip - 1]!; if (fuel < 0) throw fuelFault(fiber); };
              if (--backEdges === 0) {
                backEdges = BACK_EDGE_SAMPLE;
                if ((fn.untilCompiled -= BACK_EDGE_SAMPLE * ((ip) - code[ip - 1]!)) <= 0) {
                  const loopCode = fn.compiled ?? vm.loopCode(fn, code[ip - 1]!);
                  if (loopCode !== null) {
                    fiber.sp = sp;
                    fiber.fuel = fuel;
                    fiber.frameCount = fc;
                    if (runCompiledFrame(vm, fiber, loopCode, closure, base, code[ip - 1]!)) return fiber;
                    { op = -3; continue dispatch; }
                  }
                }
              };
              { ip = code[ip - 1]!; continue next; };
            }
          }
          case 67 /* S_INC_FIELD: GET_LOCAL GET_LOCAL GET_PROPERTY CONSTANT ADD SET_PROPERTY POP */: {
            let t0: Value, t1: Value, t2: Value, t3: Value, t4: Value, t5: Value, localSlot = 0;
            {
              let value: Value;
              value = stack[base + code[ip]!]!;
              t0 = value;
            }
            {
              let value: Value;
              value = ((localSlot = base + code[ip + 2]!) < sp ? stack[localSlot]! : t0);
              t1 = value;
            }
            {
              ip += 5;
              const object = t1 as Value;
              let value: Value;
              if (object instanceof ObjInstance && object.shape === fn.icShape[(ip - 1)]) value = object.values[fn.icSlot[(ip - 1)]!]!;
              else {
                value = object instanceof ObjInstance ? getInstanceProperty(fn, (ip - 1), object, constants[code[ip - 1]!] as string) : getOtherProperty(object, constants[code[ip - 1]!] as string);
                if (value instanceof ObjBoundMethod) { if (heapOver(fiber, HEAP_COST.boundMethod)) {
                    stack[sp] = t0;
                    stack[sp + 1] = t1;
                    fuel -= heapOverflow(fiber, fuel, sp + 2, fc);
                  } };
              }
              t2 = value;
            }
            {
              let value: Value;
              value = constants[code[ip + 1]!]!;
              t3 = value;
            }
            {
              ip += 3;
              const a = t2 as Value;
              const b = t3 as Value;
              let result: Value;
              if (typeof a === 'number' && typeof b === 'number') result = a + b;
              else if (typeof a === 'string' && typeof b === 'string') {
                { if (heapOver(fiber, a.length + b.length)) {
                    stack[sp] = t0;
                    stack[sp + 1] = t2;
                    stack[sp + 2] = t3;
                    fuel -= heapOverflow(fiber, fuel, sp + 3, fc);
                  } };
                result = concatStrings(a, b);
              } else throw new Fault('Operands must be two numbers or two strings.');
              t4 = result;
            }
            {
              ip += 2;
              const object = t0 as Value;
              const value = t4 as Value;
              if (object instanceof ObjInstance && object.shape === fn.icShape[(ip - 1)]) {
                // Inline cache hit: store in the cached slot. When the cache is a transition (the next
                  // shape differs) the store adds a field.
                const next = fn.icNext[(ip - 1)]!;
                if (next === object.shape) object.values[fn.icSlot[(ip - 1)]!] = value;
                else {
                  object.addField(fn.icSlot[(ip - 1)]!, value);
                  object.shape = next;
                  { if (heapOver(fiber, HEAP_COST.field)) {
                      stack[sp] = t0;
                      stack[sp + 1] = t4;
                      fuel -= heapOverflow(fiber, fuel, sp + 2, fc);
                    } };
                }
              } else {
                // A new field, a new shape or a switch to dictionary mode is work and memory: charge both.
                const cost = setProperty(fn, (ip - 1), object, constants[code[ip - 1]!] as string, value);
                if (cost > 0) {
                  { fuel -= cost; if (fuel < 0) throw fuelFault(fiber); };
                  { if (heapOver(fiber, cost)) {
                      stack[sp] = t0;
                      stack[sp + 1] = t4;
                      fuel -= heapOverflow(fiber, fuel, sp + 2, fc);
                    } };
                }
              }
              t5 = value;
            }
            ip += 1;
            continue next;
          }
          case 68 /* S_INC_LOCAL_JUMP: GET_LOCAL CONSTANT ADD SET_LOCAL POP JUMP */: {
            let t0: Value, t1: Value, t2: Value, t3: Value;
            {
              let value: Value;
              value = stack[base + code[ip]!]!;
              t0 = value;
            }
            {
              let value: Value;
              value = constants[code[ip + 2]!]!;
              t1 = value;
            }
            {
              ip += 4;
              const a = t0 as Value;
              const b = t1 as Value;
              let result: Value;
              if (typeof a === 'number' && typeof b === 'number') result = a + b;
              else if (typeof a === 'string' && typeof b === 'string') {
                { if (heapOver(fiber, a.length + b.length)) {
                    stack[sp] = t0;
                    stack[sp + 1] = t1;
                    fuel -= heapOverflow(fiber, fuel, sp + 2, fc);
                  } };
                result = concatStrings(a, b);
              } else throw new Fault('Operands must be two numbers or two strings.');
              t2 = result;
            }
            {
              const value = t2 as Value;
              stack[base + code[ip + 1]!] = value;
              t3 = value;
            }
            {
              { ip = code[ip + 4]!; continue next; };
            }
          }
          case 69 /* S_LL_NOT_EQUAL_JUMP: GET_LOCAL GET_LOCAL EQUAL NOT JUMP_IF_FALSE_POP */: {
            let t0: Value, t1: Value, t2: Value, t3: Value, localSlot = 0;
            {
              let value: Value;
              value = stack[base + code[ip]!]!;
              t0 = value;
            }
            {
              let value: Value;
              value = ((localSlot = base + code[ip + 2]!) < sp ? stack[localSlot]! : t0);
              t1 = value;
            }
            {
              ip += 4;
              const a = t0 as Value;
              const b = t1 as Value;
              let result: Value;
              if (typeof a === 'string') {
                result = a === b;
                if (a.length > 64 && typeof b === 'string' && a.length === b.length) { fuel -= a.length >> 6; if (fuel < 0) throw fuelFault(fiber); };
              } else result = a === b || (isHostObject(a) && isHostObject(b) && hostEquals(a, b));
              t2 = result;
            }
            {
              const value = t2 as Value;
              let result: Value;
              result = value === null || value === false;
              t3 = result;
            }
            {
              const condition = t3 as Value;
              if (condition === null || condition === false) { ip = code[ip + 2]! + 1; continue next; };
            }
            ip += 4;
            continue next;
          }
          case 70 /* S_LK_NOT_EQUAL_JUMP: GET_LOCAL CONSTANT EQUAL NOT JUMP_IF_FALSE_POP */: {
            let t0: Value, t1: Value, t2: Value, t3: Value;
            {
              let value: Value;
              value = stack[base + code[ip]!]!;
              t0 = value;
            }
            {
              let value: Value;
              value = constants[code[ip + 2]!]!;
              t1 = value;
            }
            {
              ip += 4;
              const a = t0 as Value;
              const b = t1 as Value;
              let result: Value;
              if (typeof a === 'string') {
                result = a === b;
                if (a.length > 64 && typeof b === 'string' && a.length === b.length) { fuel -= a.length >> 6; if (fuel < 0) throw fuelFault(fiber); };
              } else result = a === b || (isHostObject(a) && isHostObject(b) && hostEquals(a, b));
              t2 = result;
            }
            {
              const value = t2 as Value;
              let result: Value;
              result = value === null || value === false;
              t3 = result;
            }
            {
              const condition = t3 as Value;
              if (condition === null || condition === false) { ip = code[ip + 2]! + 1; continue next; };
            }
            ip += 4;
            continue next;
          }
          case 71 /* S_LL_LESS_JUMP_JUMP: GET_LOCAL GET_LOCAL LESS JUMP_IF_FALSE_POP JUMP */: {
            let t0: Value, t1: Value, t2: Value, localSlot = 0;
            {
              let value: Value;
              value = stack[base + code[ip]!]!;
              t0 = value;
            }
            {
              let value: Value;
              value = ((localSlot = base + code[ip + 2]!) < sp ? stack[localSlot]! : t0);
              t1 = value;
            }
            {
              ip += 4;
              const a = t0 as Value;
              const b = t1 as Value;
              let result: Value;
              if (typeof a !== 'number' || typeof b !== 'number') throw new Fault('Operands must be numbers.');
              result = a < b;
              t2 = result;
            }
            {
              const condition = t2 as Value;
              if (condition === null || condition === false) { ip = code[ip + 1]! + 1; continue next; };
            }
            {
              { ip = code[ip + 4]!; continue next; };
            }
          }
          case 72 /* S_LK_LESS_JUMP_JUMP: GET_LOCAL CONSTANT LESS JUMP_IF_FALSE_POP JUMP */: {
            let t0: Value, t1: Value, t2: Value;
            {
              let value: Value;
              value = stack[base + code[ip]!]!;
              t0 = value;
            }
            {
              let value: Value;
              value = constants[code[ip + 2]!]!;
              t1 = value;
            }
            {
              ip += 4;
              const a = t0 as Value;
              const b = t1 as Value;
              let result: Value;
              if (typeof a !== 'number' || typeof b !== 'number') throw new Fault('Operands must be numbers.');
              result = a < b;
              t2 = result;
            }
            {
              const condition = t2 as Value;
              if (condition === null || condition === false) { ip = code[ip + 1]! + 1; continue next; };
            }
            {
              { ip = code[ip + 4]!; continue next; };
            }
          }
          case 73 /* S_LL_GREATER_JUMP_JUMP: GET_LOCAL GET_LOCAL GREATER JUMP_IF_FALSE_POP JUMP */: {
            let t0: Value, t1: Value, t2: Value, localSlot = 0;
            {
              let value: Value;
              value = stack[base + code[ip]!]!;
              t0 = value;
            }
            {
              let value: Value;
              value = ((localSlot = base + code[ip + 2]!) < sp ? stack[localSlot]! : t0);
              t1 = value;
            }
            {
              ip += 4;
              const a = t0 as Value;
              const b = t1 as Value;
              let result: Value;
              if (typeof a !== 'number' || typeof b !== 'number') throw new Fault('Operands must be numbers.');
              result = a > b;
              t2 = result;
            }
            {
              const condition = t2 as Value;
              if (condition === null || condition === false) { ip = code[ip + 1]! + 1; continue next; };
            }
            {
              { ip = code[ip + 4]!; continue next; };
            }
          }
          case 74 /* S_LK_GREATER_JUMP_JUMP: GET_LOCAL CONSTANT GREATER JUMP_IF_FALSE_POP JUMP */: {
            let t0: Value, t1: Value, t2: Value;
            {
              let value: Value;
              value = stack[base + code[ip]!]!;
              t0 = value;
            }
            {
              let value: Value;
              value = constants[code[ip + 2]!]!;
              t1 = value;
            }
            {
              ip += 4;
              const a = t0 as Value;
              const b = t1 as Value;
              let result: Value;
              if (typeof a !== 'number' || typeof b !== 'number') throw new Fault('Operands must be numbers.');
              result = a > b;
              t2 = result;
            }
            {
              const condition = t2 as Value;
              if (condition === null || condition === false) { ip = code[ip + 1]! + 1; continue next; };
            }
            {
              { ip = code[ip + 4]!; continue next; };
            }
          }
          case 75 /* S_INC_LOCAL: GET_LOCAL CONSTANT ADD SET_LOCAL POP */: {
            let t0: Value, t1: Value, t2: Value, t3: Value;
            {
              let value: Value;
              value = stack[base + code[ip]!]!;
              t0 = value;
            }
            {
              let value: Value;
              value = constants[code[ip + 2]!]!;
              t1 = value;
            }
            {
              ip += 4;
              const a = t0 as Value;
              const b = t1 as Value;
              let result: Value;
              if (typeof a === 'number' && typeof b === 'number') result = a + b;
              else if (typeof a === 'string' && typeof b === 'string') {
                { if (heapOver(fiber, a.length + b.length)) {
                    stack[sp] = t0;
                    stack[sp + 1] = t1;
                    fuel -= heapOverflow(fiber, fuel, sp + 2, fc);
                  } };
                result = concatStrings(a, b);
              } else throw new Fault('Operands must be two numbers or two strings.');
              t2 = result;
            }
            {
              const value = t2 as Value;
              stack[base + code[ip + 1]!] = value;
              t3 = value;
            }
            ip += 3;
            continue next;
          }
          case 76 /* S_ADD_UPVALUE_LOCAL: GET_UPVALUE GET_LOCAL ADD SET_UPVALUE POP */: {
            let t0: Value, t1: Value, t2: Value, t3: Value, localSlot = 0;
            {
              let value: Value;
              const upvalue = closure.upvalues[code[ip]!]!;
              value = upvalue.cells[upvalue.index]!;
              t0 = value;
            }
            {
              let value: Value;
              value = ((localSlot = base + code[ip + 2]!) < sp ? stack[localSlot]! : t0);
              t1 = value;
            }
            {
              ip += 4;
              const a = t0 as Value;
              const b = t1 as Value;
              let result: Value;
              if (typeof a === 'number' && typeof b === 'number') result = a + b;
              else if (typeof a === 'string' && typeof b === 'string') {
                { if (heapOver(fiber, a.length + b.length)) {
                    stack[sp] = t0;
                    stack[sp + 1] = t1;
                    fuel -= heapOverflow(fiber, fuel, sp + 2, fc);
                  } };
                result = concatStrings(a, b);
              } else throw new Fault('Operands must be two numbers or two strings.');
              t2 = result;
            }
            {
              const value = t2 as Value;
              const upvalue = closure.upvalues[code[ip + 1]!]!;
              upvalue.cells[upvalue.index] = value;
              t3 = value;
            }
            ip += 3;
            continue next;
          }
          case 77 /* S_NIL_NOT_EQUAL_JUMP: NIL EQUAL NOT JUMP_IF_FALSE_POP */: {
            let t0: Value, t1: Value, t2: Value;
            {
              let value: Value;
              value = null;
              t0 = value;
            }
            {
              ip += 1;
              const a = stack[sp - 1]!;
              const b = t0 as Value;
              sp -= 1;
              let result: Value;
              if (typeof a === 'string') {
                result = a === b;
                if (a.length > 64 && typeof b === 'string' && a.length === b.length) { fuel -= a.length >> 6; if (fuel < 0) throw fuelFault(fiber); };
              } else result = a === b || (isHostObject(a) && isHostObject(b) && hostEquals(a, b));
              t1 = result;
            }
            {
              const value = t1 as Value;
              let result: Value;
              result = value === null || value === false;
              t2 = result;
            }
            {
              const condition = t2 as Value;
              if (condition === null || condition === false) { ip = code[ip + 2]! + 1; continue next; };
            }
            ip += 4;
            continue next;
          }
          case 78 /* S_NIL_EQUAL_JUMP: NIL EQUAL JUMP_IF_FALSE_POP */: {
            let t0: Value, t1: Value;
            {
              let value: Value;
              value = null;
              t0 = value;
            }
            {
              ip += 1;
              const a = stack[sp - 1]!;
              const b = t0 as Value;
              sp -= 1;
              let result: Value;
              if (typeof a === 'string') {
                result = a === b;
                if (a.length > 64 && typeof b === 'string' && a.length === b.length) { fuel -= a.length >> 6; if (fuel < 0) throw fuelFault(fiber); };
              } else result = a === b || (isHostObject(a) && isHostObject(b) && hostEquals(a, b));
              t1 = result;
            }
            {
              const condition = t1 as Value;
              if (condition === null || condition === false) { ip = code[ip + 1]! + 1; continue next; };
            }
            ip += 3;
            continue next;
          }
          case 79 /* S_K_MODULO_SET_LOCAL_POP: CONSTANT MODULO SET_LOCAL POP */: {
            let t0: Value, t1: Value, t2: Value;
            {
              let value: Value;
              value = constants[code[ip]!]!;
              t0 = value;
            }
            {
              ip += 2;
              const a = stack[sp - 1]!;
              const b = t0 as Value;
              sp -= 1;
              let result: Value;
              if (typeof a !== 'number' || typeof b !== 'number') throw new Fault('Operands must be numbers.');
              result = a % b;
              t1 = result;
            }
            {
              const value = t1 as Value;
              stack[base + code[ip + 1]!] = value;
              t2 = value;
            }
            ip += 3;
            continue next;
          }
          case 80 /* S_SET_FIELD_LOCAL: GET_LOCAL GET_LOCAL SET_PROPERTY POP */: {
            let t0: Value, t1: Value, t2: Value, localSlot = 0;
            {
              let value: Value;
              value = stack[base + code[ip]!]!;
              t0 = value;
            }
            {
              let value: Value;
              value = ((localSlot = base + code[ip + 2]!) < sp ? stack[localSlot]! : t0);
              t1 = value;
            }
            {
              ip += 5;
              const object = t0 as Value;
              const value = t1 as Value;
              if (object instanceof ObjInstance && object.shape === fn.icShape[(ip - 1)]) {
                // Inline cache hit: store in the cached slot. When the cache is a transition (the next
                  // shape differs) the store adds a field.
                const next = fn.icNext[(ip - 1)]!;
                if (next === object.shape) object.values[fn.icSlot[(ip - 1)]!] = value;
                else {
                  object.addField(fn.icSlot[(ip - 1)]!, value);
                  object.shape = next;
                  { if (heapOver(fiber, HEAP_COST.field)) {
                      stack[sp] = t0;
                      stack[sp + 1] = t1;
                      fuel -= heapOverflow(fiber, fuel, sp + 2, fc);
                    } };
                }
              } else {
                // A new field, a new shape or a switch to dictionary mode is work and memory: charge both.
                const cost = setProperty(fn, (ip - 1), object, constants[code[ip - 1]!] as string, value);
                if (cost > 0) {
                  { fuel -= cost; if (fuel < 0) throw fuelFault(fiber); };
                  { if (heapOver(fiber, cost)) {
                      stack[sp] = t0;
                      stack[sp + 1] = t1;
                      fuel -= heapOverflow(fiber, fuel, sp + 2, fc);
                    } };
                }
              }
              t2 = value;
            }
            ip += 1;
            continue next;
          }
          case 81 /* S_SET_FIELD_CONSTANT: GET_LOCAL CONSTANT SET_PROPERTY POP */: {
            let t0: Value, t1: Value, t2: Value;
            {
              let value: Value;
              value = stack[base + code[ip]!]!;
              t0 = value;
            }
            {
              let value: Value;
              value = constants[code[ip + 2]!]!;
              t1 = value;
            }
            {
              ip += 5;
              const object = t0 as Value;
              const value = t1 as Value;
              if (object instanceof ObjInstance && object.shape === fn.icShape[(ip - 1)]) {
                // Inline cache hit: store in the cached slot. When the cache is a transition (the next
                  // shape differs) the store adds a field.
                const next = fn.icNext[(ip - 1)]!;
                if (next === object.shape) object.values[fn.icSlot[(ip - 1)]!] = value;
                else {
                  object.addField(fn.icSlot[(ip - 1)]!, value);
                  object.shape = next;
                  { if (heapOver(fiber, HEAP_COST.field)) {
                      stack[sp] = t0;
                      stack[sp + 1] = t1;
                      fuel -= heapOverflow(fiber, fuel, sp + 2, fc);
                    } };
                }
              } else {
                // A new field, a new shape or a switch to dictionary mode is work and memory: charge both.
                const cost = setProperty(fn, (ip - 1), object, constants[code[ip - 1]!] as string, value);
                if (cost > 0) {
                  { fuel -= cost; if (fuel < 0) throw fuelFault(fiber); };
                  { if (heapOver(fiber, cost)) {
                      stack[sp] = t0;
                      stack[sp + 1] = t1;
                      fuel -= heapOverflow(fiber, fuel, sp + 2, fc);
                    } };
                }
              }
              t2 = value;
            }
            ip += 1;
            continue next;
          }
          case 82 /* S_LL_LESS_JUMP: GET_LOCAL GET_LOCAL LESS JUMP_IF_FALSE_POP */: {
            let t0: Value, t1: Value, t2: Value, localSlot = 0;
            {
              let value: Value;
              value = stack[base + code[ip]!]!;
              t0 = value;
            }
            {
              let value: Value;
              value = ((localSlot = base + code[ip + 2]!) < sp ? stack[localSlot]! : t0);
              t1 = value;
            }
            {
              ip += 4;
              const a = t0 as Value;
              const b = t1 as Value;
              let result: Value;
              if (typeof a !== 'number' || typeof b !== 'number') throw new Fault('Operands must be numbers.');
              result = a < b;
              t2 = result;
            }
            {
              const condition = t2 as Value;
              if (condition === null || condition === false) { ip = code[ip + 1]! + 1; continue next; };
            }
            ip += 3;
            continue next;
          }
          case 83 /* S_LK_LESS_JUMP: GET_LOCAL CONSTANT LESS JUMP_IF_FALSE_POP */: {
            let t0: Value, t1: Value, t2: Value;
            {
              let value: Value;
              value = stack[base + code[ip]!]!;
              t0 = value;
            }
            {
              let value: Value;
              value = constants[code[ip + 2]!]!;
              t1 = value;
            }
            {
              ip += 4;
              const a = t0 as Value;
              const b = t1 as Value;
              let result: Value;
              if (typeof a !== 'number' || typeof b !== 'number') throw new Fault('Operands must be numbers.');
              result = a < b;
              t2 = result;
            }
            {
              const condition = t2 as Value;
              if (condition === null || condition === false) { ip = code[ip + 1]! + 1; continue next; };
            }
            ip += 3;
            continue next;
          }
          case 84 /* S_LL_GREATER_JUMP: GET_LOCAL GET_LOCAL GREATER JUMP_IF_FALSE_POP */: {
            let t0: Value, t1: Value, t2: Value, localSlot = 0;
            {
              let value: Value;
              value = stack[base + code[ip]!]!;
              t0 = value;
            }
            {
              let value: Value;
              value = ((localSlot = base + code[ip + 2]!) < sp ? stack[localSlot]! : t0);
              t1 = value;
            }
            {
              ip += 4;
              const a = t0 as Value;
              const b = t1 as Value;
              let result: Value;
              if (typeof a !== 'number' || typeof b !== 'number') throw new Fault('Operands must be numbers.');
              result = a > b;
              t2 = result;
            }
            {
              const condition = t2 as Value;
              if (condition === null || condition === false) { ip = code[ip + 1]! + 1; continue next; };
            }
            ip += 3;
            continue next;
          }
          case 85 /* S_LK_GREATER_JUMP: GET_LOCAL CONSTANT GREATER JUMP_IF_FALSE_POP */: {
            let t0: Value, t1: Value, t2: Value;
            {
              let value: Value;
              value = stack[base + code[ip]!]!;
              t0 = value;
            }
            {
              let value: Value;
              value = constants[code[ip + 2]!]!;
              t1 = value;
            }
            {
              ip += 4;
              const a = t0 as Value;
              const b = t1 as Value;
              let result: Value;
              if (typeof a !== 'number' || typeof b !== 'number') throw new Fault('Operands must be numbers.');
              result = a > b;
              t2 = result;
            }
            {
              const condition = t2 as Value;
              if (condition === null || condition === false) { ip = code[ip + 1]! + 1; continue next; };
            }
            ip += 3;
            continue next;
          }
          case 86 /* S_LL_EQUAL_JUMP: GET_LOCAL GET_LOCAL EQUAL JUMP_IF_FALSE_POP */: {
            let t0: Value, t1: Value, t2: Value, localSlot = 0;
            {
              let value: Value;
              value = stack[base + code[ip]!]!;
              t0 = value;
            }
            {
              let value: Value;
              value = ((localSlot = base + code[ip + 2]!) < sp ? stack[localSlot]! : t0);
              t1 = value;
            }
            {
              ip += 4;
              const a = t0 as Value;
              const b = t1 as Value;
              let result: Value;
              if (typeof a === 'string') {
                result = a === b;
                if (a.length > 64 && typeof b === 'string' && a.length === b.length) { fuel -= a.length >> 6; if (fuel < 0) throw fuelFault(fiber); };
              } else result = a === b || (isHostObject(a) && isHostObject(b) && hostEquals(a, b));
              t2 = result;
            }
            {
              const condition = t2 as Value;
              if (condition === null || condition === false) { ip = code[ip + 1]! + 1; continue next; };
            }
            ip += 3;
            continue next;
          }
          case 87 /* S_LK_EQUAL_JUMP: GET_LOCAL CONSTANT EQUAL JUMP_IF_FALSE_POP */: {
            let t0: Value, t1: Value, t2: Value;
            {
              let value: Value;
              value = stack[base + code[ip]!]!;
              t0 = value;
            }
            {
              let value: Value;
              value = constants[code[ip + 2]!]!;
              t1 = value;
            }
            {
              ip += 4;
              const a = t0 as Value;
              const b = t1 as Value;
              let result: Value;
              if (typeof a === 'string') {
                result = a === b;
                if (a.length > 64 && typeof b === 'string' && a.length === b.length) { fuel -= a.length >> 6; if (fuel < 0) throw fuelFault(fiber); };
              } else result = a === b || (isHostObject(a) && isHostObject(b) && hostEquals(a, b));
              t2 = result;
            }
            {
              const condition = t2 as Value;
              if (condition === null || condition === false) { ip = code[ip + 1]! + 1; continue next; };
            }
            ip += 3;
            continue next;
          }
          case 88 /* S_GLOBAL_SUB_LOCAL_CONSTANT: GET_GLOBAL GET_LOCAL CONSTANT SUBTRACT */: {
            let t0: Value, t1: Value, t2: Value, t3: Value, localSlot = 0;
            {
              ip += 1;
              let value: Value;
              value = globals[code[ip - 1]!]!;
              if (value === UNDEFINED) throw new Fault(`Undefined variable ${quoted(globalNames[code[ip - 1]!] ?? '')}.`);
              t0 = value;
            }
            {
              let value: Value;
              value = ((localSlot = base + code[ip + 1]!) < sp ? stack[localSlot]! : t0);
              t1 = value;
            }
            {
              let value: Value;
              value = constants[code[ip + 3]!]!;
              t2 = value;
            }
            {
              ip += 5;
              const a = t1 as Value;
              const b = t2 as Value;
              let result: Value;
              if (typeof a !== 'number' || typeof b !== 'number') throw new Fault('Operands must be numbers.');
              result = a - b;
              t3 = result;
            }
            stack[sp] = t0;
            stack[sp + 1] = t3;
            sp += 2;
            continue next;
          }
          case 89 /* S_LOCAL_LOCAL_PROPERTY: GET_LOCAL GET_LOCAL GET_PROPERTY */: {
            let t0: Value, t1: Value, t2: Value, localSlot = 0;
            {
              let value: Value;
              value = stack[base + code[ip]!]!;
              t0 = value;
            }
            {
              let value: Value;
              value = ((localSlot = base + code[ip + 2]!) < sp ? stack[localSlot]! : t0);
              t1 = value;
            }
            {
              ip += 5;
              const object = t1 as Value;
              let value: Value;
              if (object instanceof ObjInstance && object.shape === fn.icShape[(ip - 1)]) value = object.values[fn.icSlot[(ip - 1)]!]!;
              else {
                value = object instanceof ObjInstance ? getInstanceProperty(fn, (ip - 1), object, constants[code[ip - 1]!] as string) : getOtherProperty(object, constants[code[ip - 1]!] as string);
                if (value instanceof ObjBoundMethod) { if (heapOver(fiber, HEAP_COST.boundMethod)) {
                    stack[sp] = t0;
                    stack[sp + 1] = t1;
                    fuel -= heapOverflow(fiber, fuel, sp + 2, fc);
                  } };
              }
              t2 = value;
            }
            stack[sp] = t0;
            stack[sp + 1] = t2;
            sp += 2;
            continue next;
          }
          case 90 /* S_RETURN_LOCAL_PROPERTY: GET_LOCAL GET_PROPERTY RETURN */: {
            let t0: Value, t1: Value;
            {
              let value: Value;
              value = stack[base + code[ip]!]!;
              t0 = value;
            }
            {
              ip += 3;
              const object = t0 as Value;
              let value: Value;
              if (object instanceof ObjInstance && object.shape === fn.icShape[(ip - 1)]) value = object.values[fn.icSlot[(ip - 1)]!]!;
              else {
                value = object instanceof ObjInstance ? getInstanceProperty(fn, (ip - 1), object, constants[code[ip - 1]!] as string) : getOtherProperty(object, constants[code[ip - 1]!] as string);
                if (value instanceof ObjBoundMethod) { if (heapOver(fiber, HEAP_COST.boundMethod)) {
                    stack[sp] = t0;
                    fuel -= heapOverflow(fiber, fuel, sp + 1, fc);
                  } };
              }
              t1 = value;
            }
            stack[sp] = t1;
            sp += 1;
            ip += 1;
            {
              const result = stack[sp - 1]!;
              if (fiber.openUpvalues !== null) closeUpvalues(fiber, base);
              fc--;
              if (fc === 0) {
                fiber.result = result;
                fiber.fuel = fuel;
                vm.finish(fiber, 'done');
                return fiber;
              }
              sp = base;
              stack[sp++] = result;
              closure = frameClosures[fc - 1]!;
              fn = closure.fn;
              code = fn.code;
              base = frameBases[fc - 1]!;
              ip = frameIps[fc - 1]!;
              continue next;;
            }
          }
          case 91 /* S_INVOKE_LOCAL_PROPERTY: GET_LOCAL GET_PROPERTY INVOKE */: {
            let t0: Value, t1: Value;
            {
              let value: Value;
              value = stack[base + code[ip]!]!;
              t0 = value;
            }
            {
              ip += 3;
              const object = t0 as Value;
              let value: Value;
              if (object instanceof ObjInstance && object.shape === fn.icShape[(ip - 1)]) value = object.values[fn.icSlot[(ip - 1)]!]!;
              else {
                value = object instanceof ObjInstance ? getInstanceProperty(fn, (ip - 1), object, constants[code[ip - 1]!] as string) : getOtherProperty(object, constants[code[ip - 1]!] as string);
                if (value instanceof ObjBoundMethod) { if (heapOver(fiber, HEAP_COST.boundMethod)) {
                    stack[sp] = t0;
                    fuel -= heapOverflow(fiber, fuel, sp + 1, fc);
                  } };
              }
              t1 = value;
            }
            stack[sp] = t1;
            sp += 1;
            ip += 3;
            {
              const cached = stack[sp - 1 - code[ip - 1]!]!;
              if (cached instanceof ObjInstance && cached.shape === fn.icShape[(ip - 2)]) {
                callTarget = fn.icMethod[(ip - 2)]!;
                callArgc = code[ip - 1]!;
                { op = -1; continue dispatch; };
              }
              const quickArgc = code[ip - 1]!;
              const mapReceiver = stack[sp - (quickArgc + 1) + 0]!;
              // The count first: compiled code has it as a literal, so at a call without arguments V8 drops
              // the whole test (the instanceof was done at every such INVOKE: invocation's 30 sites a loop).
              if (quickArgc > 0 && mapReceiver instanceof ObjMap) {
                // QUICK_MAP: quickMapMethod, or in compiled code the one method the name's constant picks (CaseWriter).
                const quick = quickMapMethod(mapReceiver, constants[code[ip - 2]!] as string, quickArgc, stack[sp - (quickArgc + 1) + 1]!, quickArgc > 1 ? stack[sp - (quickArgc + 1) + 2]! : undefined);
                if (quick !== undefined) { sp -= (quickArgc + 1) - 1; stack[sp - 1] = quick; continue next; };
              }
              const name = constants[code[ip - 2]!] as string;
              const argc = code[ip - 1]!;
              const receiverSlot = sp - 1 - argc;
              const receiver = stack[receiverSlot]!;
              callArgc = argc;
              if (receiver instanceof ObjInstance) {
                const field = receiver.getField(name);
                if (field !== undefined) {
                  // A field holding a function shadows a method of the same name (clox).
                  stack[receiverSlot] = field;
                  { op = -2; continue dispatch; };
                }
                const method = receiver.klass.methods.get(name);
                if (method === undefined) throw new Fault(`Undefined property ${quoted(name)}.`);
                if (!receiver.isDictionary) {
                  fn.icShape[(ip - 2)] = receiver.shape;
                  fn.icMethod[(ip - 2)] = method;
                }
                callTarget = method;
                { op = -1; continue dispatch; };
              }
              fiber.sp = sp;
              fiber.frameCount = fc;
              {
                fiber.fuel = fuel;
                ctx.fn = fn;
                ctx.ip = ip;
                const callResult = invokeOther(ctx, fiber, receiver, name, receiverSlot + 1, argc);
                fuel = fiber.fuel;
                sp = receiverSlot;
                if (ctx.suspendRequested) {
                  ctx.suspendRequested = false;
                  return suspend(fiber, 'suspended', fc, ip, sp, fuel);
                }
                stack[sp++] = callResult;
              };
            }
            continue next;
          }
          case 92 /* S_LOCAL_PROPERTY_ADD: GET_LOCAL GET_PROPERTY ADD */: {
            let t0: Value, t1: Value, t2: Value;
            {
              let value: Value;
              value = stack[base + code[ip]!]!;
              t0 = value;
            }
            {
              ip += 3;
              const object = t0 as Value;
              let value: Value;
              if (object instanceof ObjInstance && object.shape === fn.icShape[(ip - 1)]) value = object.values[fn.icSlot[(ip - 1)]!]!;
              else {
                value = object instanceof ObjInstance ? getInstanceProperty(fn, (ip - 1), object, constants[code[ip - 1]!] as string) : getOtherProperty(object, constants[code[ip - 1]!] as string);
                if (value instanceof ObjBoundMethod) { if (heapOver(fiber, HEAP_COST.boundMethod)) {
                    stack[sp] = t0;
                    fuel -= heapOverflow(fiber, fuel, sp + 1, fc);
                  } };
              }
              t1 = value;
            }
            {
              ip += 1;
              const a = stack[sp - 1]!;
              const b = t1 as Value;
              sp -= 1;
              let result: Value;
              if (typeof a === 'number' && typeof b === 'number') result = a + b;
              else if (typeof a === 'string' && typeof b === 'string') {
                { if (heapOver(fiber, a.length + b.length)) {
                    stack[sp + 1] = t1;
                    fuel -= heapOverflow(fiber, fuel, sp + 1 + 1, fc);
                  } };
                result = concatStrings(a, b);
              } else throw new Fault('Operands must be two numbers or two strings.');
              t2 = result;
            }
            stack[sp] = t2;
            sp += 1;
            continue next;
          }
          case 93 /* S_ADD_LOCAL_CONSTANT: GET_LOCAL CONSTANT ADD */: {
            let t0: Value, t1: Value, t2: Value;
            {
              let value: Value;
              value = stack[base + code[ip]!]!;
              t0 = value;
            }
            {
              let value: Value;
              value = constants[code[ip + 2]!]!;
              t1 = value;
            }
            {
              ip += 4;
              const a = t0 as Value;
              const b = t1 as Value;
              let result: Value;
              if (typeof a === 'number' && typeof b === 'number') result = a + b;
              else if (typeof a === 'string' && typeof b === 'string') {
                { if (heapOver(fiber, a.length + b.length)) {
                    stack[sp] = t0;
                    stack[sp + 1] = t1;
                    fuel -= heapOverflow(fiber, fuel, sp + 2, fc);
                  } };
                result = concatStrings(a, b);
              } else throw new Fault('Operands must be two numbers or two strings.');
              t2 = result;
            }
            stack[sp] = t2;
            sp += 1;
            continue next;
          }
          case 94 /* S_SUBTRACT_LOCAL_CONSTANT: GET_LOCAL CONSTANT SUBTRACT */: {
            let t0: Value, t1: Value, t2: Value;
            {
              let value: Value;
              value = stack[base + code[ip]!]!;
              t0 = value;
            }
            {
              let value: Value;
              value = constants[code[ip + 2]!]!;
              t1 = value;
            }
            {
              ip += 4;
              const a = t0 as Value;
              const b = t1 as Value;
              let result: Value;
              if (typeof a !== 'number' || typeof b !== 'number') throw new Fault('Operands must be numbers.');
              result = a - b;
              t2 = result;
            }
            stack[sp] = t2;
            sp += 1;
            continue next;
          }
          case 95 /* S_MODULO_LOCAL_CONSTANT: GET_LOCAL CONSTANT MODULO */: {
            let t0: Value, t1: Value, t2: Value;
            {
              let value: Value;
              value = stack[base + code[ip]!]!;
              t0 = value;
            }
            {
              let value: Value;
              value = constants[code[ip + 2]!]!;
              t1 = value;
            }
            {
              ip += 4;
              const a = t0 as Value;
              const b = t1 as Value;
              let result: Value;
              if (typeof a !== 'number' || typeof b !== 'number') throw new Fault('Operands must be numbers.');
              result = a % b;
              t2 = result;
            }
            stack[sp] = t2;
            sp += 1;
            continue next;
          }
          case 96 /* S_ADD_LOCAL_LOCAL: GET_LOCAL GET_LOCAL ADD */: {
            let t0: Value, t1: Value, t2: Value, localSlot = 0;
            {
              let value: Value;
              value = stack[base + code[ip]!]!;
              t0 = value;
            }
            {
              let value: Value;
              value = ((localSlot = base + code[ip + 2]!) < sp ? stack[localSlot]! : t0);
              t1 = value;
            }
            {
              ip += 4;
              const a = t0 as Value;
              const b = t1 as Value;
              let result: Value;
              if (typeof a === 'number' && typeof b === 'number') result = a + b;
              else if (typeof a === 'string' && typeof b === 'string') {
                { if (heapOver(fiber, a.length + b.length)) {
                    stack[sp] = t0;
                    stack[sp + 1] = t1;
                    fuel -= heapOverflow(fiber, fuel, sp + 2, fc);
                  } };
                result = concatStrings(a, b);
              } else throw new Fault('Operands must be two numbers or two strings.');
              t2 = result;
            }
            stack[sp] = t2;
            sp += 1;
            continue next;
          }
          case 97 /* S_ADD_SET_LOCAL_POP: ADD SET_LOCAL POP */: {
            let t0: Value, t1: Value;
            {
              const a = stack[sp - 2]!;
              const b = stack[sp - 1]!;
              sp -= 2;
              let result: Value;
              if (typeof a === 'number' && typeof b === 'number') result = a + b;
              else if (typeof a === 'string' && typeof b === 'string') {
                { if (heapOver(fiber, a.length + b.length)) {
                    fuel -= heapOverflow(fiber, fuel, sp + 2, fc);
                  } };
                result = concatStrings(a, b);
              } else throw new Fault('Operands must be two numbers or two strings.');
              t0 = result;
            }
            {
              const value = t0 as Value;
              stack[base + code[ip + 1]!] = value;
              t1 = value;
            }
            ip += 3;
            continue next;
          }
          case 98 /* S_ADD_ADD_LOCAL: ADD GET_LOCAL ADD */: {
            let t0: Value, t1: Value, t2: Value, localSlot = 0;
            {
              const a = stack[sp - 2]!;
              const b = stack[sp - 1]!;
              sp -= 2;
              let result: Value;
              if (typeof a === 'number' && typeof b === 'number') result = a + b;
              else if (typeof a === 'string' && typeof b === 'string') {
                { if (heapOver(fiber, a.length + b.length)) {
                    fuel -= heapOverflow(fiber, fuel, sp + 2, fc);
                  } };
                result = concatStrings(a, b);
              } else throw new Fault('Operands must be two numbers or two strings.');
              t0 = result;
            }
            {
              let value: Value;
              value = ((localSlot = base + code[ip + 1]!) < sp ? stack[localSlot]! : t0);
              t1 = value;
            }
            {
              ip += 3;
              const a = t0 as Value;
              const b = t1 as Value;
              let result: Value;
              if (typeof a === 'number' && typeof b === 'number') result = a + b;
              else if (typeof a === 'string' && typeof b === 'string') {
                { if (heapOver(fiber, a.length + b.length)) {
                    stack[sp] = t0;
                    stack[sp + 1] = t1;
                    fuel -= heapOverflow(fiber, fuel, sp + 2, fc);
                  } };
                result = concatStrings(a, b);
              } else throw new Fault('Operands must be two numbers or two strings.');
              t2 = result;
            }
            stack[sp] = t2;
            sp += 1;
            continue next;
          }
          case 99 /* S_ADD_SET_PROPERTY_POP: ADD SET_PROPERTY POP */: {
            let t0: Value, t1: Value;
            {
              const a = stack[sp - 2]!;
              const b = stack[sp - 1]!;
              sp -= 2;
              let result: Value;
              if (typeof a === 'number' && typeof b === 'number') result = a + b;
              else if (typeof a === 'string' && typeof b === 'string') {
                { if (heapOver(fiber, a.length + b.length)) {
                    fuel -= heapOverflow(fiber, fuel, sp + 2, fc);
                  } };
                result = concatStrings(a, b);
              } else throw new Fault('Operands must be two numbers or two strings.');
              t0 = result;
            }
            {
              ip += 2;
              const object = stack[sp - 1]!;
              const value = t0 as Value;
              sp -= 1;
              if (object instanceof ObjInstance && object.shape === fn.icShape[(ip - 1)]) {
                // Inline cache hit: store in the cached slot. When the cache is a transition (the next
                  // shape differs) the store adds a field.
                const next = fn.icNext[(ip - 1)]!;
                if (next === object.shape) object.values[fn.icSlot[(ip - 1)]!] = value;
                else {
                  object.addField(fn.icSlot[(ip - 1)]!, value);
                  object.shape = next;
                  { if (heapOver(fiber, HEAP_COST.field)) {
                      stack[sp + 1] = t0;
                      fuel -= heapOverflow(fiber, fuel, sp + 1 + 1, fc);
                    } };
                }
              } else {
                // A new field, a new shape or a switch to dictionary mode is work and memory: charge both.
                const cost = setProperty(fn, (ip - 1), object, constants[code[ip - 1]!] as string, value);
                if (cost > 0) {
                  { fuel -= cost; if (fuel < 0) throw fuelFault(fiber); };
                  { if (heapOver(fiber, cost)) {
                      stack[sp + 1] = t0;
                      fuel -= heapOverflow(fiber, fuel, sp + 1 + 1, fc);
                    } };
                }
              }
              t1 = value;
            }
            ip += 1;
            continue next;
          }
          case 100 /* S_LESS_JUMP: LESS JUMP_IF_FALSE_POP */: {
            let t0: Value;
            {
              const a = stack[sp - 2]!;
              const b = stack[sp - 1]!;
              sp -= 2;
              let result: Value;
              if (typeof a !== 'number' || typeof b !== 'number') throw new Fault('Operands must be numbers.');
              result = a < b;
              t0 = result;
            }
            {
              const condition = t0 as Value;
              if (condition === null || condition === false) { ip = code[ip + 1]! + 1; continue next; };
            }
            ip += 3;
            continue next;
          }
          case 101 /* S_EQUAL_JUMP: EQUAL JUMP_IF_FALSE_POP */: {
            let t0: Value;
            {
              const a = stack[sp - 2]!;
              const b = stack[sp - 1]!;
              sp -= 2;
              let result: Value;
              if (typeof a === 'string') {
                result = a === b;
                if (a.length > 64 && typeof b === 'string' && a.length === b.length) { fuel -= a.length >> 6; if (fuel < 0) throw fuelFault(fiber); };
              } else result = a === b || (isHostObject(a) && isHostObject(b) && hostEquals(a, b));
              t0 = result;
            }
            {
              const condition = t0 as Value;
              if (condition === null || condition === false) { ip = code[ip + 1]! + 1; continue next; };
            }
            ip += 3;
            continue next;
          }
          case 102 /* S_GREATER_JUMP: GREATER JUMP_IF_FALSE_POP */: {
            let t0: Value;
            {
              const a = stack[sp - 2]!;
              const b = stack[sp - 1]!;
              sp -= 2;
              let result: Value;
              if (typeof a !== 'number' || typeof b !== 'number') throw new Fault('Operands must be numbers.');
              result = a > b;
              t0 = result;
            }
            {
              const condition = t0 as Value;
              if (condition === null || condition === false) { ip = code[ip + 1]! + 1; continue next; };
            }
            ip += 3;
            continue next;
          }
          case 103 /* S_JUMP_IF_FALSE_POP: JUMP_IF_FALSE_POP */: {
            {
              const condition = stack[sp - 1]!;
              sp -= 1;
              if (condition === null || condition === false) { ip = code[ip]! + 1; continue next; };
            }
            ip += 2;
            continue next;
          }
          case 104 /* S_SET_LOCAL_POP: SET_LOCAL POP */: {
            let t0: Value;
            {
              const value = stack[sp - 1]!;
              sp -= 1;
              stack[base + code[ip]!] = value;
              t0 = value;
            }
            ip += 2;
            continue next;
          }
          case 105 /* S_SET_PROPERTY_POP: SET_PROPERTY POP */: {
            let t0: Value;
            {
              ip += 1;
              const object = stack[sp - 2]!;
              const value = stack[sp - 1]!;
              sp -= 2;
              if (object instanceof ObjInstance && object.shape === fn.icShape[(ip - 1)]) {
                // Inline cache hit: store in the cached slot. When the cache is a transition (the next
                  // shape differs) the store adds a field.
                const next = fn.icNext[(ip - 1)]!;
                if (next === object.shape) object.values[fn.icSlot[(ip - 1)]!] = value;
                else {
                  object.addField(fn.icSlot[(ip - 1)]!, value);
                  object.shape = next;
                  { if (heapOver(fiber, HEAP_COST.field)) {
                      fuel -= heapOverflow(fiber, fuel, sp + 2, fc);
                    } };
                }
              } else {
                // A new field, a new shape or a switch to dictionary mode is work and memory: charge both.
                const cost = setProperty(fn, (ip - 1), object, constants[code[ip - 1]!] as string, value);
                if (cost > 0) {
                  { fuel -= cost; if (fuel < 0) throw fuelFault(fiber); };
                  { if (heapOver(fiber, cost)) {
                      fuel -= heapOverflow(fiber, fuel, sp + 2, fc);
                    } };
                }
              }
              t0 = value;
            }
            ip += 1;
            continue next;
          }
          case 106 /* S_GET_LOCAL_PROPERTY: GET_LOCAL GET_PROPERTY */: {
            let t0: Value, t1: Value;
            {
              let value: Value;
              value = stack[base + code[ip]!]!;
              t0 = value;
            }
            {
              ip += 3;
              const object = t0 as Value;
              let value: Value;
              if (object instanceof ObjInstance && object.shape === fn.icShape[(ip - 1)]) value = object.values[fn.icSlot[(ip - 1)]!]!;
              else {
                value = object instanceof ObjInstance ? getInstanceProperty(fn, (ip - 1), object, constants[code[ip - 1]!] as string) : getOtherProperty(object, constants[code[ip - 1]!] as string);
                if (value instanceof ObjBoundMethod) { if (heapOver(fiber, HEAP_COST.boundMethod)) {
                    stack[sp] = t0;
                    fuel -= heapOverflow(fiber, fuel, sp + 1, fc);
                  } };
              }
              t1 = value;
            }
            stack[sp] = t1;
            sp += 1;
            continue next;
          }
          case 107 /* S_RETURN_LOCAL: GET_LOCAL RETURN */: {
            let t0: Value;
            {
              let value: Value;
              value = stack[base + code[ip]!]!;
              t0 = value;
            }
            stack[sp] = t0;
            sp += 1;
            ip += 2;
            {
              const result = stack[sp - 1]!;
              if (fiber.openUpvalues !== null) closeUpvalues(fiber, base);
              fc--;
              if (fc === 0) {
                fiber.result = result;
                fiber.fuel = fuel;
                vm.finish(fiber, 'done');
                return fiber;
              }
              sp = base;
              stack[sp++] = result;
              closure = frameClosures[fc - 1]!;
              fn = closure.fn;
              code = fn.code;
              base = frameBases[fc - 1]!;
              ip = frameIps[fc - 1]!;
              continue next;;
            }
          }
          case 108 /* S_RETURN_UPVALUE: GET_UPVALUE RETURN */: {
            let t0: Value;
            {
              let value: Value;
              const upvalue = closure.upvalues[code[ip]!]!;
              value = upvalue.cells[upvalue.index]!;
              t0 = value;
            }
            stack[sp] = t0;
            sp += 1;
            ip += 2;
            {
              const result = stack[sp - 1]!;
              if (fiber.openUpvalues !== null) closeUpvalues(fiber, base);
              fc--;
              if (fc === 0) {
                fiber.result = result;
                fiber.fuel = fuel;
                vm.finish(fiber, 'done');
                return fiber;
              }
              sp = base;
              stack[sp++] = result;
              closure = frameClosures[fc - 1]!;
              fn = closure.fn;
              code = fn.code;
              base = frameBases[fc - 1]!;
              ip = frameIps[fc - 1]!;
              continue next;;
            }
          }
          case 109 /* S_INVOKE_LOCAL: GET_LOCAL INVOKE */: {
            let t0: Value;
            {
              let value: Value;
              value = stack[base + code[ip]!]!;
              t0 = value;
            }
            stack[sp] = t0;
            sp += 1;
            ip += 4;
            {
              const cached = stack[sp - 1 - code[ip - 1]!]!;
              if (cached instanceof ObjInstance && cached.shape === fn.icShape[(ip - 2)]) {
                callTarget = fn.icMethod[(ip - 2)]!;
                callArgc = code[ip - 1]!;
                { op = -1; continue dispatch; };
              }
              const quickArgc = code[ip - 1]!;
              const mapReceiver = stack[sp - (quickArgc + 1) + 0]!;
              // The count first: compiled code has it as a literal, so at a call without arguments V8 drops
              // the whole test (the instanceof was done at every such INVOKE: invocation's 30 sites a loop).
              if (quickArgc > 0 && mapReceiver instanceof ObjMap) {
                // QUICK_MAP: quickMapMethod, or in compiled code the one method the name's constant picks (CaseWriter).
                const quick = quickMapMethod(mapReceiver, constants[code[ip - 2]!] as string, quickArgc, stack[sp - (quickArgc + 1) + 1]!, quickArgc > 1 ? stack[sp - (quickArgc + 1) + 2]! : undefined);
                if (quick !== undefined) { sp -= (quickArgc + 1) - 1; stack[sp - 1] = quick; continue next; };
              }
              const name = constants[code[ip - 2]!] as string;
              const argc = code[ip - 1]!;
              const receiverSlot = sp - 1 - argc;
              const receiver = stack[receiverSlot]!;
              callArgc = argc;
              if (receiver instanceof ObjInstance) {
                const field = receiver.getField(name);
                if (field !== undefined) {
                  // A field holding a function shadows a method of the same name (clox).
                  stack[receiverSlot] = field;
                  { op = -2; continue dispatch; };
                }
                const method = receiver.klass.methods.get(name);
                if (method === undefined) throw new Fault(`Undefined property ${quoted(name)}.`);
                if (!receiver.isDictionary) {
                  fn.icShape[(ip - 2)] = receiver.shape;
                  fn.icMethod[(ip - 2)] = method;
                }
                callTarget = method;
                { op = -1; continue dispatch; };
              }
              fiber.sp = sp;
              fiber.frameCount = fc;
              {
                fiber.fuel = fuel;
                ctx.fn = fn;
                ctx.ip = ip;
                const callResult = invokeOther(ctx, fiber, receiver, name, receiverSlot + 1, argc);
                fuel = fiber.fuel;
                sp = receiverSlot;
                if (ctx.suspendRequested) {
                  ctx.suspendRequested = false;
                  return suspend(fiber, 'suspended', fc, ip, sp, fuel);
                }
                stack[sp++] = callResult;
              };
            }
            continue next;
          }
          case 110 /* S_K_ADD: CONSTANT ADD */: {
            let t0: Value, t1: Value;
            {
              let value: Value;
              value = constants[code[ip]!]!;
              t0 = value;
            }
            {
              ip += 2;
              const a = stack[sp - 1]!;
              const b = t0 as Value;
              sp -= 1;
              let result: Value;
              if (typeof a === 'number' && typeof b === 'number') result = a + b;
              else if (typeof a === 'string' && typeof b === 'string') {
                { if (heapOver(fiber, a.length + b.length)) {
                    stack[sp + 1] = t0;
                    fuel -= heapOverflow(fiber, fuel, sp + 1 + 1, fc);
                  } };
                result = concatStrings(a, b);
              } else throw new Fault('Operands must be two numbers or two strings.');
              t1 = result;
            }
            stack[sp] = t1;
            sp += 1;
            continue next;
          }
          case 111 /* S_K_SUBTRACT: CONSTANT SUBTRACT */: {
            let t0: Value, t1: Value;
            {
              let value: Value;
              value = constants[code[ip]!]!;
              t0 = value;
            }
            {
              ip += 2;
              const a = stack[sp - 1]!;
              const b = t0 as Value;
              sp -= 1;
              let result: Value;
              if (typeof a !== 'number' || typeof b !== 'number') throw new Fault('Operands must be numbers.');
              result = a - b;
              t1 = result;
            }
            stack[sp] = t1;
            sp += 1;
            continue next;
          }
          case 112 /* S_K_MULTIPLY: CONSTANT MULTIPLY */: {
            let t0: Value, t1: Value;
            {
              let value: Value;
              value = constants[code[ip]!]!;
              t0 = value;
            }
            {
              ip += 2;
              const a = stack[sp - 1]!;
              const b = t0 as Value;
              sp -= 1;
              let result: Value;
              if (typeof a !== 'number' || typeof b !== 'number') throw new Fault('Operands must be numbers.');
              result = a * b;
              t1 = result;
            }
            stack[sp] = t1;
            sp += 1;
            continue next;
          }
          case 113 /* S_K_MODULO: CONSTANT MODULO */: {
            let t0: Value, t1: Value;
            {
              let value: Value;
              value = constants[code[ip]!]!;
              t0 = value;
            }
            {
              ip += 2;
              const a = stack[sp - 1]!;
              const b = t0 as Value;
              sp -= 1;
              let result: Value;
              if (typeof a !== 'number' || typeof b !== 'number') throw new Fault('Operands must be numbers.');
              result = a % b;
              t1 = result;
            }
            stack[sp] = t1;
            sp += 1;
            continue next;
          }
          case 114 /* S_L_ADD: GET_LOCAL ADD */: {
            let t0: Value, t1: Value;
            {
              let value: Value;
              value = stack[base + code[ip]!]!;
              t0 = value;
            }
            {
              ip += 2;
              const a = stack[sp - 1]!;
              const b = t0 as Value;
              sp -= 1;
              let result: Value;
              if (typeof a === 'number' && typeof b === 'number') result = a + b;
              else if (typeof a === 'string' && typeof b === 'string') {
                { if (heapOver(fiber, a.length + b.length)) {
                    stack[sp + 1] = t0;
                    fuel -= heapOverflow(fiber, fuel, sp + 1 + 1, fc);
                  } };
                result = concatStrings(a, b);
              } else throw new Fault('Operands must be two numbers or two strings.');
              t1 = result;
            }
            stack[sp] = t1;
            sp += 1;
            continue next;
          }
          case 115 /* S_L_SUBTRACT: GET_LOCAL SUBTRACT */: {
            let t0: Value, t1: Value;
            {
              let value: Value;
              value = stack[base + code[ip]!]!;
              t0 = value;
            }
            {
              ip += 2;
              const a = stack[sp - 1]!;
              const b = t0 as Value;
              sp -= 1;
              let result: Value;
              if (typeof a !== 'number' || typeof b !== 'number') throw new Fault('Operands must be numbers.');
              result = a - b;
              t1 = result;
            }
            stack[sp] = t1;
            sp += 1;
            continue next;
          }
          case 116 /* S_L_MULTIPLY: GET_LOCAL MULTIPLY */: {
            let t0: Value, t1: Value;
            {
              let value: Value;
              value = stack[base + code[ip]!]!;
              t0 = value;
            }
            {
              ip += 2;
              const a = stack[sp - 1]!;
              const b = t0 as Value;
              sp -= 1;
              let result: Value;
              if (typeof a !== 'number' || typeof b !== 'number') throw new Fault('Operands must be numbers.');
              result = a * b;
              t1 = result;
            }
            stack[sp] = t1;
            sp += 1;
            continue next;
          }
          case 117 /* S_GET_LOCAL2: GET_LOCAL GET_LOCAL */: {
            let t0: Value, t1: Value, localSlot = 0;
            {
              let value: Value;
              value = stack[base + code[ip]!]!;
              t0 = value;
            }
            {
              let value: Value;
              value = ((localSlot = base + code[ip + 2]!) < sp ? stack[localSlot]! : t0);
              t1 = value;
            }
            stack[sp] = t0;
            stack[sp + 1] = t1;
            sp += 2;
            ip += 3;
            continue next;
          }
          case 118 /* S_GET_LOCAL_CONSTANT: GET_LOCAL CONSTANT */: {
            let t0: Value, t1: Value;
            {
              let value: Value;
              value = stack[base + code[ip]!]!;
              t0 = value;
            }
            {
              let value: Value;
              value = constants[code[ip + 2]!]!;
              t1 = value;
            }
            stack[sp] = t0;
            stack[sp + 1] = t1;
            sp += 2;
            ip += 3;
            continue next;
          }
          case 119 /* S_POP_GET_LOCAL: POP GET_LOCAL */: {
            let t0: Value;
            {
              sp -= 1;
            }
            {
              let value: Value;
              value = stack[base + code[ip + 1]!]!;
              t0 = value;
            }
            stack[sp] = t0;
            sp += 1;
            ip += 2;
            continue next;
          }
          case 120 /* S_POP_JUMP: POP JUMP */: {
            {
              sp -= 1;
            }
            {
              { ip = code[ip + 1]!; continue next; };
            }
          }
          case 121 /* S_POP_LOOP: POP LOOP */: {
            {
              sp -= 1;
            }
            {
              ip += 2;
              { fuel -= (ip) - code[ip - 1]!; if (fuel < 0) throw fuelFault(fiber); };
              if (--backEdges === 0) {
                backEdges = BACK_EDGE_SAMPLE;
                if ((fn.untilCompiled -= BACK_EDGE_SAMPLE * ((ip) - code[ip - 1]!)) <= 0) {
                  const loopCode = fn.compiled ?? vm.loopCode(fn, code[ip - 1]!);
                  if (loopCode !== null) {
                    fiber.sp = sp;
                    fiber.fuel = fuel;
                    fiber.frameCount = fc;
                    if (runCompiledFrame(vm, fiber, loopCode, closure, base, code[ip - 1]!)) return fiber;
                    { op = -3; continue dispatch; }
                  }
                }
              };
              { ip = code[ip - 1]!; continue next; };
            }
          }
          case -3 /* RELOAD: back from compiled code */: {
            fc = fiber.frameCount;
            sp = fiber.sp;
            fuel = fiber.fuel;
            frameIps = fiber.frameIps;
            frameBases = fiber.frameBases;
            frameClosures = fiber.frameClosures;
            frameLimit = Math.min(frameIps.length, fiber.frameBudget);
            closure = frameClosures[fc - 1]!;
            fn = closure.fn;
            code = fn.code;
            base = frameBases[fc - 1]!;
            ip = frameIps[fc - 1]!;
            continue next;
          }
          default:
            throw new Fault(`Unknown opcode ${op}.`);
        }
      }
    }
  } catch (error) {
    return fail(vm, fiber, error, fc, ip, sp, fuel);
  }
}
