/** Calls out of the interpreter: host functions, methods of host objects, and the built-in methods of strings, lists and maps. */

import { quoted } from '../bounded-text.js';
import type { MethodRow } from '../builtin-method.js';
import type { Fiber } from '../fiber.js';
import type { VmHostContext } from '../host-context.js';
import { callMethod, methodsOf } from '../method-dispatch.js';
import { ParamCheck, describeType, isHostObject, matchesParam, type ObjFunction, type ObjHostFunction } from '../objects.js';
import type { Value } from '../value.js';
import { chargeBeforeHost, checkBudgetsAfterHost, overBudget } from './charges.js';
import { Fault, hostFault } from './fault.js';
import { checkHostResult, noSuchMethod } from './value-ops.js';

/**
 * CALL_HOST's road (vm/instructions/calls.ts) around the implementation, which
 * the instruction calls itself: in compiled code each call site's feedback then
 * sees the one host function it calls, which V8 can inline there. enterHost
 * checks the arguments against the spec, charges what is charged before the
 * call and points the context at the fiber (it returns the fiber the context
 * held); leaveHost puts the context back and checks the budgets and the
 * result; what the implementation throws goes through hostFailed. The caller
 * has set ctx.fn and ctx.ip (CALL_OUT's order), which both put back too.
 */
export function enterHost(ctx: VmHostContext, fiber: Fiber, host: ObjHostFunction, argBase: number, argc: number): Fiber | null {
  checkHost(fiber, host, argBase, argc);
  const saved = ctx.fiber;
  ctx.fiber = fiber;
  ctx.suspendRequested = false;
  return saved;
}

/**
 * The checks and charges enterHost makes before a host call, for CALL_HOST,
 * which points the context at the fiber itself (ENTER_HOST: the rare road
 * of a host with typed parameters or a charge; a host taking any values
 * and charging nothing calls none of this).
 */
export function checkHost(fiber: Fiber, host: ObjHostFunction, argBase: number, argc: number): void {
  if (!host.unchecked) checkHostArguments(fiber, host, argBase, argc);
  if (host.chargesBefore) chargeBeforeHost(fiber, host, fiber.stack, argBase, argc);
}

/**
 * For compiled code holding a host call's arguments (at most 3: `a0` …
 * beyond `argc` are ignored) in locals, when they need more than the quick
 * checks made at the call site (vm/generator/case-writer.ts, heldHostCheck):
 * written where checkHost reads them, then checkHost.
 */
export function checkHostSpilled(fiber: Fiber, host: ObjHostFunction, argBase: number, argc: number, a0: Value, a1: Value, a2: Value): void {
  const stack = fiber.stack;
  if (argc > 0) stack[argBase] = a0;
  if (argc > 1) stack[argBase + 1] = a1;
  if (argc > 2) stack[argBase + 2] = a2;
  checkHost(fiber, host, argBase, argc);
}

/**
 * After the implementation returned (see enterHost): the context put back, the budgets and the result
 * checked. (CALL_HOST writes the same out in the instruction: vm/instructions/calls.ts.)
 */
export function leaveHost(ctx: VmHostContext, fiber: Fiber, saved: Fiber | null, fn: ObjFunction | null, ip: number, host: ObjHostFunction, result: Value | undefined): Value {
  // Restored on both exits (here and in hostFailed) rather than in a `finally` (cheaper in V8's optimized code).
  ctx.fiber = saved;
  ctx.fn = fn;
  ctx.ip = ip;
  if (overBudget(fiber)) checkBudgetsAfterHost(fiber);
  return typeof result === 'number' || result === null ? result : checkHostResult(result, host.name);
}

/**
 * A host function held as a value and called (CALL on it): enterHost, the
 * call, leaveHost, as CALL_HOST does. Kept small (the rare roads are
 * functions of their own) so that V8 inlines it into compiled code: at 584
 * bytecode bytes, past V8's inlining limit of 460, it was a real call.
 */
export function callHost(ctx: VmHostContext, fiber: Fiber, host: ObjHostFunction, argBase: number, argc: number): Value {
  const fn = ctx.fn;
  const ip = ctx.ip;
  const saved = enterHost(ctx, fiber, host, argBase, argc);
  const impl = host.impl;
  const stack = fiber.stack;
  let result: Value | undefined;
  try {
    result =
      argc === 0
        ? impl(ctx)
        : argc === 1
          ? impl(ctx, stack[argBase]!)
          : argc === 2
            ? impl(ctx, stack[argBase]!, stack[argBase + 1]!)
            : argc === 3
              ? impl(ctx, stack[argBase]!, stack[argBase + 1]!, stack[argBase + 2]!)
              : callWithMany(ctx, impl, stack, argBase, argc);
  } catch (error) {
    throw hostFailed(ctx, saved, fn, ip, host, error);
  }
  return leaveHost(ctx, fiber, saved, fn, ip, host, result);
}

/** A host call with 4 arguments or more, for CALL_HOST. */
export function callHostWithMany(ctx: VmHostContext, fiber: Fiber, host: ObjHostFunction, argBase: number, argc: number): Value | undefined {
  return callWithMany(ctx, host.impl, fiber.stack, argBase, argc);
}

/** callHost's type check of the arguments (for a host function with a typed parameter). */
function checkHostArguments(fiber: Fiber, host: ObjHostFunction, argBase: number, argc: number): void {
  const checks = host.checks;
  const stack = fiber.stack;
  for (let i = 0; i < argc; i++) {
    if (!matchesParam(checks[i] as 0, stack[argBase + i]!)) {
      const param = host.host.params[i]!;
      throw new Fault(`Argument ${i + 1} of ${host.name}() must be ${describeType(param.type)}.`);
    }
  }
}

/** callHost's call with 4 arguments or more. */
function callWithMany(ctx: VmHostContext, impl: ObjHostFunction['impl'], stack: readonly Value[], argBase: number, argc: number): Value | undefined {
  if (argc === 4) return impl(ctx, stack[argBase]!, stack[argBase + 1]!, stack[argBase + 2]!, stack[argBase + 3]!);
  return impl(ctx, ...stack.slice(argBase, argBase + argc));
}

/** The implementation threw: the context put back, and what it threw as the Fault to raise. */
export function hostFailed(ctx: VmHostContext, fiber: Fiber | null, fn: ObjFunction | null, ip: number, host: ObjHostFunction, error: unknown): Fault {
  ctx.suspendRequested = false;
  ctx.fiber = fiber;
  ctx.fn = fn;
  ctx.ip = ip;
  return hostFault(error, `Host function '${host.name}' failed`);
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
  if (overBudget(fiber)) checkBudgetsAfterHost(fiber);
  return result;
}
