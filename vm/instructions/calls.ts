/** Calls, returns, closures and host functions. */

import { frameInstruction, stackInstruction } from './define.js';

export const CALL_INSTRUCTIONS = [
  frameInstruction(
    'CALL',
    ['count'],
    { pops: (o) => o[0]! + 1, stack: (o) => -o[0]! },
    'callee args… -> result (charges fuel)',
    `const argc = $0;
     const callee = stack[sp - 1 - argc]!;
     if (!(callee instanceof ObjClosure)) {
       callArgc = argc;
       GOTO(CALL_VALUE);
     }
     ENTER(callee, argc);`,
  ),
  frameInstruction(
    'INVOKE',
    ['name', 'count'],
    { pops: (o) => o[1]! + 1, stack: (o) => -o[1]! },
    'receiver args… -> receiver.name(args…)',
    `const name = constants[$0] as string;
     const argc = $1;
     const receiverSlot = sp - 1 - argc;
     const receiver = stack[receiverSlot]!;
     callArgc = argc;
     if (receiver instanceof ObjInstance) {
       const field = receiver.getField(name);
       if (field !== undefined) {
         // A field holding a function shadows a method of the same name (clox).
         stack[receiverSlot] = field;
         GOTO(CALL_VALUE);
       }
       const method = receiver.klass.methods.get(name);
       if (method === undefined) FAULT(\`Undefined property \${quoted(name)}.\`);
       if (!receiver.isDictionary) {
         fn.icShape[IC] = receiver.shape;
         fn.icMethod[IC] = method;
       }
       callTarget = method;
       GOTO(PUSH_FRAME);
     }
     MEASURABLE();
     CALL_OUT(receiverSlot, invokeOther(ctx, fiber, receiver, name, receiverSlot + 1, argc));`,
    {
      // Inline cache hit: this shape has no field of that name, and its class has the method.
      fastPath: `const cached = stack[sp - 1 - $1]!;
        if (cached instanceof ObjInstance && cached.shape === fn.icShape[IC]) {
          callTarget = fn.icMethod[IC]!;
          callArgc = $1;
          GOTO(PUSH_FRAME);
        }`,
      // A map's get / has / remove with a string or number key needs no call out (vm/map-methods.ts).
      // INPUT(k, n): the receiver (0) and the arguments; FINISH: the result in place of all n (compiled
      // code may hold them in locals: CaseWriter.heldInline).
      inlinePath: `const quickArgc = $1;
        const mapReceiver = INPUT(0, quickArgc + 1);
        // The count first: compiled code has it as a literal, so at a call without arguments V8 drops
        // the whole test (the instanceof was done at every such INVOKE: invocation's 30 sites a loop).
        if (quickArgc > 0 && mapReceiver instanceof ObjMap) {
          // QUICK_MAP: quickMapMethod, or in compiled code the one method the name's constant picks (CaseWriter).
          const quick = QUICK_MAP(mapReceiver, $0, quickArgc, INPUT(1, quickArgc + 1), quickArgc > 1 ? INPUT(2, quickArgc + 1) : undefined);
          if (quick !== undefined) FINISH(quick, quickArgc + 1);
        }`,
    },
  ),
  frameInstruction(
    'SUPER_INVOKE',
    ['name', 'count'],
    { pops: (o) => o[1]! + 2, stack: (o) => -o[1]! - 1 },
    'this args… superclass -> super.name(args…)',
    `const name = constants[$0] as string;
     const superclass = stack[--sp]!;
     if (!(superclass instanceof ObjClass)) FAULT('Superclass must be a class.');
     const method = superclass.methods.get(name);
     if (method === undefined) FAULT(\`Undefined property \${quoted(name)}.\`);
     // The cache: this class (its root shape names it), while no class's methods change.
     fn.icShape[IC] = superclass.rootShape;
     fn.icMethod[IC] = method;
     fn.icSlot[IC] = methodTables.changes;
     callTarget = method;
     callArgc = $1;
     GOTO(PUSH_FRAME);`,
    {
      // Inline cache hit: the same superclass as last time, and no class's methods changed since.
      fastPath: `const cachedClass = stack[sp - 1]!;
        if (cachedClass instanceof ObjClass && cachedClass.rootShape === fn.icShape[IC] && fn.icSlot[IC] === methodTables.changes) {
          sp--;
          callTarget = fn.icMethod[IC]!;
          callArgc = $1;
          GOTO(PUSH_FRAME);
        }`,
    },
  ),
  frameInstruction(
    'CALL_HOST',
    ['host', 'count'],
    { pops: (o) => o[1]!, stack: (o) => 1 - o[1]! },
    'args… -> hostImports[h](args…)',
    // The implementation is called here, not inside callHost: in compiled code each call site's feedback then
    // sees the one host function it calls (vm/interpreter/host-calls.ts, enterHost).
    // The arguments are ARG(0) … (on the stack from ARG_BASE, or, in compiled code, up to 3 held in locals:
    // ENTER_HOST then checks them there, and writes them to the stack only for a check that fails or a charge).
    // enterHost's and leaveHost's work is written out here (V8 would inline them, spending its inlining
    // budget for the whole compiled function on them at every call site); only the checks and charges are a call
    // (ENTER_HOST: checkHost), made when the host has a typed parameter or a charge. The wait is cleared and the
    // context pointed at the fiber in one statement: the generator finds CALL_OUT's wait by its text
    // (CLEAR_SUSPEND, vm/generator/macros.ts).
    // The budgets test after the call is charges.ts's overBudget written out: calling it measured 20-25 -> 24-29 ns per
    // entity of the drift world (world-ratio, 10k, three runs alternated). Change both together.
    `const argc = $1;
     const argBase = ARG_BASE(argc);
     const hostFn = hostImports[$0]!;
     fiber.fuel = fuel;
     ctx.fn = fn;
     ctx.ip = ip;
     const savedFiber = ctx.fiber;
     if (hostFn.chargesBefore || !hostFn.unchecked) ENTER_HOST(hostFn, argBase, argc);
     ctx.suspendRequested = false, ctx.fiber = fiber;
     MEASURABLE(hostFn);
     const impl = hostFn.impl;
     let returned;
     try {
       returned =
         argc === 0 ? impl(ctx)
         : argc === 1 ? impl(ctx, ARG(0))
         : argc === 2 ? impl(ctx, ARG(0), ARG(1))
         : argc === 3 ? impl(ctx, ARG(0), ARG(1), ARG(2))
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
     CALL_OUT(argBase, hostResult);`,
  ),
  stackInstruction(
    'HOST_FUNCTION',
    ['host'],
    { inputs: [], outputs: ['host'] },
    'push host function hostImports[h] as a value',
    'host = hostImports[$0]!;',
    { mayFail: false },
  ),
  stackInstruction(
    'CLOSURE',
    ['function'],
    { inputs: [], outputs: ['made'] },
    'push a closure over functions[f], capturing the upvalues its prototype lists',
    `const target = functions[$0]!;
     const count = target.proto.upvalues.length;
     // Charged by the upvalues captured, the new upvalue objects and the open-upvalue entries walked (captureUpvalues).
     HEAP(HEAP_COST.closure + count);
     let upvalues = NO_UPVALUES;
     if (count > 0) {
       upvalues = captureUpvalues(fiber, target, closure, base);
       HEAP(HEAP_COST.upvalue * lastCapture.created);
       CHARGE(count + lastCapture.walked);
     }
     made = new ObjClosure(target, upvalues);`,
  ),
  frameInstruction(
    'CLOSE_UPVALUE',
    [],
    { pops: 1, stack: -1 },
    'close the upvalue for the top slot and pop it',
    `closeUpvalues(fiber, sp - 1);
     sp--;`,
    { mayFail: false },
  ),
  frameInstruction(
    'RETURN',
    [],
    { pops: 1, stack: 0 },
    'return top to the caller',
    `const result = stack[sp - 1]!;
     if (fiber.openUpvalues !== null) closeUpvalues(fiber, base);
     LEAVE(result);`,
    { terminal: true, mayFail: false },
  ),
] as const;

/**
 * The interpreter's continuations of a call, never in bytecode: CALL, INVOKE
 * and SUPER_INVOKE go on with one of these (\`GOTO\`) with \`ip\` at their
 * return address, the argument count in \`callArgc\` and, for PUSH_FRAME, the
 * closure to enter in \`callTarget\`.
 */
export const CALL_CONTINUATIONS = [
  frameInstruction('PUSH_FRAME', [], { pops: 0, stack: 0 }, 'enter callTarget with callArgc arguments', 'ENTER(callTarget, callArgc);'),
  frameInstruction(
    'CALL_VALUE',
    [],
    { pops: 0, stack: 0 },
    'call anything but a plain closure; the callee sits below callArgc arguments',
    `const argc = callArgc;
     const calleeSlot = sp - 1 - argc;
     const callee = stack[calleeSlot]!;
     if (callee instanceof ObjClosure) ENTER(callee, argc);
     if (callee instanceof ObjBoundMethod) {
       stack[calleeSlot] = callee.receiver;
       if (callee.method instanceof ObjClosure) ENTER(callee.method, argc);
       MEASURABLE();
       CALL_OUT(calleeSlot, callBuiltinMethod(ctx, fiber, callee.method, callee.receiver, calleeSlot + 1, argc));
     } else if (callee instanceof ObjClass) {
       HEAP(HEAP_COST.instance);
       stack[calleeSlot] = new ObjInstance(callee);
       if (callee.initializer !== null) ENTER(callee.initializer, argc);
       if (argc !== 0) FAULT(\`Expected 0 arguments but got \${argc}.\`);
     } else if (callee instanceof ObjHostFunction) {
       if (argc < callee.minArity || argc > callee.maxArity) FAULT(hostArityMessage(callee.host, argc));
       MEASURABLE();
       CALL_OUT(calleeSlot, callHost(ctx, fiber, callee, calleeSlot + 1, argc));
     } else FAULT('Can only call functions and classes.');`,
  ),
] as const;
