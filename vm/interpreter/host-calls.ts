/** Calls out of the interpreter: host functions, methods of host objects, and the built-in methods of strings, lists and maps. */

import { quoted } from '../bounded-text.js';
import type { MethodRow } from '../builtin-method.js';
import type { Fiber } from '../fiber.js';
import type { VmHostContext } from '../host-context.js';
import { callMethod, methodsOf } from '../method-dispatch.js';
import { describeType, isHostObject, matchesParam, type ObjHostFunction } from '../objects.js';
import type { Value } from '../value.js';
import { chargeBeforeHost, checkBudgetsAfterHost } from './charges.js';
import { Fault, hostFault } from './fault.js';
import { checkHostResult, noSuchMethod } from './value-ops.js';

/** Check the arguments against the spec, call the implementation, and turn whatever it throws into a Fault. */
export function callHost(ctx: VmHostContext, fiber: Fiber, host: ObjHostFunction, argBase: number, argc: number): Value {
  const stack = fiber.stack;
  if (!host.unchecked) {
    const checks = host.checks;
    for (let i = 0; i < argc; i++) {
      if (!matchesParam(checks[i] as 0, stack[argBase + i]!)) {
        const param = host.host.params[i]!;
        throw new Fault(`Argument ${i + 1} of ${host.name}() must be ${describeType(param.type)}.`);
      }
    }
  }
  if (host.chargesBefore) chargeBeforeHost(fiber, host, stack, argBase, argc);
  const savedFiber = ctx.fiber;
  const savedFn = ctx.fn;
  const savedIp = ctx.ip;
  ctx.fiber = fiber;
  ctx.suspendRequested = false;
  const impl = host.impl;
  let result: Value;
  try {
    switch (argc) {
      case 0:
        result = impl(ctx);
        break;
      case 1:
        result = impl(ctx, stack[argBase]!);
        break;
      case 2:
        result = impl(ctx, stack[argBase]!, stack[argBase + 1]!);
        break;
      case 3:
        result = impl(ctx, stack[argBase]!, stack[argBase + 1]!, stack[argBase + 2]!);
        break;
      case 4:
        result = impl(ctx, stack[argBase]!, stack[argBase + 1]!, stack[argBase + 2]!, stack[argBase + 3]!);
        break;
      default:
        result = impl(ctx, ...stack.slice(argBase, argBase + argc));
    }
  } catch (error) {
    ctx.suspendRequested = false;
    ctx.fiber = savedFiber;
    ctx.fn = savedFn;
    ctx.ip = savedIp;
    throw hostFault(error, `Host function '${host.name}' failed`);
  }
  // Restored on both exits rather than in a `finally` (cheaper in V8's optimized code).
  ctx.fiber = savedFiber;
  ctx.fn = savedFn;
  ctx.ip = savedIp;
  const budgets = fiber.budgets;
  if (fiber.fuel < 0 || fiber.heapUsed > budgets.maxHeap || fiber.outputUsed > budgets.maxOutput) checkBudgetsAfterHost(fiber);
  return typeof result === 'number' ? result : checkHostResult(result, host.name);
}

/** INVOKE on something other than an instance: string / list / map methods, host object methods. */
export function invokeOther(ctx: VmHostContext, fiber: Fiber, receiver: Value, name: string, argBase: number, argc: number): Value {
  const methods = methodsOf(receiver);
  if (methods !== null) {
    const method = methods.get(name);
    if (method === undefined) throw new Fault(noSuchMethod(receiver, name, 'methods'));
    return callBuiltinMethod(ctx, fiber, method, receiver, argBase, argc);
  }
  if (isHostObject(receiver)) {
    const savedFiber = ctx.fiber;
    ctx.fiber = fiber;
    ctx.suspendRequested = false;
    let result: Value | undefined;
    try {
      result = receiver.invokeMethod(name, fiber.stack.slice(argBase, argBase + argc), ctx);
    } catch (error) {
      ctx.suspendRequested = false;
      throw hostFault(error, `Method '${name}' of ${receiver.hostType} failed`);
    } finally {
      ctx.fiber = savedFiber;
    }
    if (result === undefined) throw new Fault(`Undefined property ${quoted(name)}.`);
    checkBudgetsAfterHost(fiber);
    return checkHostResult(result, name);
  }
  throw new Fault('Only instances have methods.');
}

/** A built-in method of a string, list or map (vm/method-dispatch.ts), charged like a host call. */
export function callBuiltinMethod(ctx: VmHostContext, fiber: Fiber, method: MethodRow<never>, receiver: Value, argBase: number, argc: number): Value {
  const stack = fiber.stack;
  const savedFiber = ctx.fiber;
  ctx.fiber = fiber;
  let result: Value;
  try {
    result = callMethod(ctx, method, receiver, argc, argc > 0 ? stack[argBase]! : undefined, argc > 1 ? stack[argBase + 1]! : undefined);
  } catch (error) {
    ctx.fiber = savedFiber;
    throw hostFault(error, `Method '${method.name}' failed`);
  }
  // Restored on both exits rather than in a `finally` (cheaper in V8's optimized code), as callHost does.
  ctx.fiber = savedFiber;
  if (fiber.fuel < 0 || fiber.heapUsed > fiber.budgets.maxHeap || fiber.outputUsed > fiber.budgets.maxOutput) checkBudgetsAfterHost(fiber);
  return result;
}
