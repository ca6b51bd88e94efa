import { describe, expect, it } from 'vitest';
import { CORE_HOST_FUNCTIONS } from './builtins.js';
import { HostError, SpellRuntimeError, VerifyError } from './errors.js';
import type { HostFunction } from './host.js';
import type { Module } from './module.js';
import { assemble, type ModuleSource } from './test-support/assemble.js';
import type { HostObject, Value } from './value.js';
import { VM, type VMOptions } from './vm.js';

function runModule(module: Module, options: VMOptions = {}) {
  const out: string[] = [];
  const vm = new VM(module, { print: (t) => out.push(t), ...options });
  const fiber = vm.runScript();
  return { vm, fiber, out };
}

function run(source: ModuleSource, options: VMOptions = {}) {
  return runModule(assemble(source), options);
}

const FIB: ModuleSource = {
  constants: [2, 1, 20],
  globals: ['fib'],
  functions: [
    { code: 'CLOSURE 1\nDEFINE_GLOBAL 0\nGET_GLOBAL 0\nCONSTANT 2\nCALL 1\nPRINT\nNIL\nRETURN' },
    {
      name: 'fib',
      arity: 1,
      code: `
        GET_LOCAL 1
        CONSTANT 0
        LESS
        JUMP_IF_FALSE else
        POP
        GET_LOCAL 1
        RETURN
      else:
        POP
        GET_GLOBAL 0
        GET_LOCAL 1
        CONSTANT 1
        SUBTRACT
        CALL 1
        GET_GLOBAL 0
        GET_LOCAL 1
        CONSTANT 0
        SUBTRACT
        CALL 1
        ADD
        RETURN`,
    },
  ],
};

/** `while (true) {}` at line 2. */
const INFINITE_LOOP: ModuleSource = {
  functions: [{ code: '@2\ntop:\nLOOP top\nNIL\nRETURN' }],
};

describe('VM basics', () => {
  it('runs arithmetic and prints Lox values', () => {
    const { fiber, out } = run({
      constants: [1, 2, 'fire', 'ball', 0.5],
      functions: [
        {
          code: `
            CONSTANT 0
            CONSTANT 1
            ADD
            PRINT
            CONSTANT 2
            CONSTANT 3
            ADD
            PRINT
            CONSTANT 4
            NEGATE
            PRINT
            NIL
            NOT
            PRINT
            CONSTANT 1
            CONSTANT 0
            MODULO
            PRINT
            NIL
            PRINT
            NIL
            RETURN`,
        },
      ],
    });
    expect(fiber.state).toBe('done');
    expect(out).toEqual(['3', 'fireball', '-0.5', 'true', '0', 'nil']);
  });

  it('computes fib(20) with recursive calls', () => {
    const { fiber, out } = run(FIB);
    expect(fiber.state).toBe('done');
    expect(out).toEqual(['6765']);
  });

  it('reports "Operands must be numbers." with the line and the call stack', () => {
    const { fiber } = run({
      constants: [1, 'a'],
      globals: ['f'],
      functions: [
        { code: '@1\nCLOSURE 1\nDEFINE_GLOBAL 0\n@5\nGET_GLOBAL 0\nCALL 0\nPOP\nNIL\nRETURN' },
        { name: 'f', code: '@3\nCONSTANT 0\nCONSTANT 1\nSUBTRACT\nRETURN' },
      ],
    });
    expect(fiber.state).toBe('failed');
    expect(fiber.error).toBeInstanceOf(SpellRuntimeError);
    expect(fiber.error!.message).toBe('Operands must be numbers.');
    expect(fiber.error!.trace).toEqual([
      { functionName: 'f', line: 3 },
      { functionName: '', line: 5 },
    ]);
    expect(fiber.error!.format()).toBe('Operands must be numbers.\n[line 3] in f()\n[line 5] in script');
  });

  it('uses the book\'s messages for bad operands', () => {
    const message = (code: string, constants: (number | string)[] = []) =>
      run({ constants, functions: [{ code: code + '\nNIL\nRETURN' }] }).fiber.error?.message;
    expect(message('CONSTANT 0\nTRUE\nADD', [1])).toBe('Operands must be two numbers or two strings.');
    expect(message('CONSTANT 0\nCONSTANT 1\nADD', [1, 's'])).toBe('Operands must be two numbers or two strings.');
    expect(message('TRUE\nNEGATE')).toBe('Operand must be a number.');
    expect(message('TRUE\nFALSE\nGREATER')).toBe('Operands must be numbers.');
    expect(message('TRUE\nCALL 0')).toBe('Can only call functions and classes.');
    expect(message('TRUE\nGET_PROPERTY 0', ['x'])).toBe('Only instances have properties.');
    expect(message('TRUE\nTRUE\nSET_PROPERTY 0', ['x'])).toBe('Only instances have fields.');
    expect(message('TRUE\nINVOKE 0 0', ['x'])).toBe('Only instances have methods.');
    expect(message('TRUE\nCLASS 0\nINHERIT', ['A'])).toBe('Superclass must be a class.');
  });

  it('reports undefined globals by name, for reads and assignments', () => {
    const get = run({ globals: ['ghost'], functions: [{ code: 'GET_GLOBAL 0\nRETURN' }] });
    expect(get.fiber.error!.message).toBe("Undefined variable 'ghost'.");
    const set = run({ globals: ['ghost'], functions: [{ code: 'NIL\nSET_GLOBAL 0\nRETURN' }] });
    expect(set.fiber.error!.message).toBe("Undefined variable 'ghost'.");
  });

  it('compares by value for numbers and strings, identity for objects, and NaN != NaN', () => {
    const { out } = run({
      constants: [1, 'ab', 'a', 'b', 0],
      functions: [
        {
          code: `
            CONSTANT 0
            CONSTANT 0
            EQUAL
            PRINT
            CONSTANT 2
            CONSTANT 3
            ADD
            CONSTANT 1
            EQUAL
            PRINT
            CONSTANT 4
            CONSTANT 4
            DIVIDE
            DUP
            EQUAL
            PRINT
            BUILD_LIST 0
            BUILD_LIST 0
            EQUAL
            PRINT
            NIL
            FALSE
            EQUAL
            PRINT
            NIL
            RETURN`,
        },
      ],
    });
    expect(out).toEqual(['true', 'true', 'false', 'false', 'false']);
  });
});

describe('closures', () => {
  it('captures a local, keeps it after the frame returns, and shares it', () => {
    const { out, fiber } = run({
      constants: [0, 1],
      globals: ['makeCounter', 'c'],
      functions: [
        {
          code: `
            CLOSURE 1
            DEFINE_GLOBAL 0
            GET_GLOBAL 0
            CALL 0
            DEFINE_GLOBAL 1
            GET_GLOBAL 1
            CALL 0
            POP
            GET_GLOBAL 1
            CALL 0
            PRINT
            GET_GLOBAL 1
            PRINT
            NIL
            RETURN`,
        },
        { name: 'makeCounter', code: 'CONSTANT 0\nCLOSURE 2\nRETURN' },
        {
          name: 'counter',
          upvalues: [{ isLocal: true, index: 1 }],
          code: 'GET_UPVALUE 0\nCONSTANT 1\nADD\nSET_UPVALUE 0\nRETURN',
        },
      ],
    });
    expect(fiber.state).toBe('done');
    expect(out).toEqual(['2', '<fn counter>']);
  });

  it('closes upvalues at CLOSE_UPVALUE so each closure keeps its own value', () => {
    // { var a = 1; fun get() { return a; } g1 = get; }  { var a = 2; ... g2 = get; } print g1(); print g2();
    const block = (k: number) => `
      CONSTANT ${k}
      CLOSURE 1
      DEFINE_GLOBAL ${k}
      CLOSE_UPVALUE`;
    const { out } = run({
      constants: [1, 2],
      globals: ['g0', 'g1'],
      functions: [
        { code: `${block(0)}\n${block(1)}\nGET_GLOBAL 0\nCALL 0\nPRINT\nGET_GLOBAL 1\nCALL 0\nPRINT\nNIL\nRETURN` },
        { name: 'get', upvalues: [{ isLocal: true, index: 1 }], code: 'GET_UPVALUE 0\nRETURN' },
      ],
    });
    expect(out).toEqual(['1', '2']);
  });
});

const CLASSES: ModuleSource = {
  constants: ['A', 'init', 'x', 'get', 'B', 41, 1, '__proto__', 5, 'constructor'],
  globals: ['A', 'B', 'b'],
  functions: [
    {
      code: `
        CLASS 0
        DEFINE_GLOBAL 0
        GET_GLOBAL 0
        CLOSURE 1
        METHOD 1
        CLOSURE 2
        METHOD 3
        POP
        CLASS 4
        DEFINE_GLOBAL 1
        GET_GLOBAL 0
        GET_GLOBAL 1
        INHERIT
        GET_GLOBAL 1
        CLOSURE 3
        METHOD 3
        POP
        CLOSE_UPVALUE
        GET_GLOBAL 1
        CONSTANT 5
        CALL 1
        DEFINE_GLOBAL 2
        GET_GLOBAL 2
        INVOKE 3 0
        PRINT
        GET_GLOBAL 2
        PRINT
        GET_GLOBAL 2
        GET_PROPERTY 3
        CALL 0
        PRINT
        GET_GLOBAL 2
        CONSTANT 8
        SET_PROPERTY 7
        POP
        GET_GLOBAL 2
        GET_PROPERTY 7
        PRINT
        @9
        GET_GLOBAL 2
        GET_PROPERTY 9
        PRINT
        NIL
        RETURN`,
    },
    { name: 'init', kind: 'initializer', arity: 1, code: 'GET_LOCAL 0\nGET_LOCAL 1\nSET_PROPERTY 2\nPOP\nGET_LOCAL 0\nRETURN' },
    { name: 'get', kind: 'method', code: 'GET_LOCAL 0\nGET_PROPERTY 2\nRETURN' },
    {
      name: 'get',
      kind: 'method',
      upvalues: [{ isLocal: true, index: 1 }],
      code: 'GET_LOCAL 0\nGET_UPVALUE 0\nSUPER_INVOKE 3 0\nCONSTANT 6\nADD\nRETURN',
    },
  ],
};

describe('classes', () => {
  it('runs init, methods, inheritance, super, bound methods and plain __proto__ fields', () => {
    const { out, fiber } = run(CLASSES);
    expect(out).toEqual(['42', 'B instance', '42', '5']);
    expect(fiber.error!.message).toBe("Undefined property 'constructor'.");
    expect(fiber.error!.line).toBe(9);
  });

  it('checks the arity of initializers and classes without one', () => {
    const { fiber } = run({
      constants: ['A'],
      functions: [{ code: 'CLASS 0\nNIL\nCALL 1\nRETURN' }],
    });
    expect(fiber.error!.message).toBe('Expected 0 arguments but got 1.');
  });
});

describe('lists', () => {
  const listProgram = (body: string, constants: (number | string)[] = []) =>
    run({ constants: [10, 20, 30, 'append', 'remove', 1, 5, 0.5, 0, ...constants], functions: [{ code: body + '\nNIL\nRETURN' }] });

  it('builds, indexes, stores, appends and removes', () => {
    const { out, fiber } = listProgram(`
      CONSTANT 0
      CONSTANT 1
      BUILD_LIST 2
      GET_LOCAL 1
      CONSTANT 2
      INVOKE 3 1
      POP
      GET_LOCAL 1
      CONSTANT 5
      INVOKE 4 1
      PRINT
      GET_LOCAL 1
      CONSTANT 5
      CONSTANT 0
      SET_INDEX
      POP
      GET_LOCAL 1
      PRINT
      GET_LOCAL 1
      CONSTANT 5
      GET_INDEX
      PRINT`);
    expect(fiber.state).toBe('done');
    expect(out).toEqual(['20', '[10, 10]', '10']);
  });

  it('rejects bad indexes with clear messages', () => {
    const index = (k: number) => listProgram(`CONSTANT 0\nBUILD_LIST 1\nCONSTANT ${k}\nGET_INDEX`).fiber.error?.message;
    expect(index(6)).toBe('List index out of range.');
    expect(index(7)).toBe('List index must be a whole number.');
    expect(index(3)).toBe('List index must be a number.');
    expect(listProgram('TRUE\nCONSTANT 0\nGET_INDEX').fiber.error?.message).toBe('Only lists and maps can be indexed.');
  });

  it('iterates with FOR_ITER and rejects non-lists', () => {
    const loop = (listCode: string) =>
      listProgram(`
        ${listCode}
        CONSTANT 8
        top:
        FOR_ITER 1 done
        PRINT
        LOOP top
        done:`);
    expect(loop('CONSTANT 0\nCONSTANT 1\nBUILD_LIST 2').out).toEqual(['10', '20']);
    expect(loop('TRUE').fiber.error?.message).toBe('Can only iterate over a list or a map.');
  }, 10_000);
});

describe('budgets', () => {
  it('ends an infinite loop with a fuel error naming the line', () => {
    const { fiber, vm } = run(INFINITE_LOOP, { fuel: 1000 });
    expect(fiber.state).toBe('failed');
    expect(fiber.error!.limit).toBe('fuel');
    expect(fiber.error!.message).toBe('Out of fuel: the script ran more than 1000 instructions.');
    expect(fiber.error!.line).toBe(2);
    expect(vm.liveFiberCount).toBe(0);
  });

  it('ends runaway recursion with "Stack overflow."', () => {
    const { fiber } = run({
      globals: ['f'],
      functions: [
        { code: 'CLOSURE 1\nDEFINE_GLOBAL 0\nGET_GLOBAL 0\nCALL 0\nRETURN' },
        { name: 'f', code: '@7\nGET_GLOBAL 0\nCALL 0\nRETURN' },
      ],
    });
    expect(fiber.error!.message).toBe('Stack overflow.');
    expect(fiber.error!.limit).toBe('call depth');
    expect(fiber.error!.trace.length).toBe(256);
    expect(fiber.error!.trace[0]).toEqual({ functionName: 'f', line: 7 });
  });

  it('honours a larger call depth, growing the frame arrays', () => {
    const { fiber } = run(
      {
        globals: ['f'],
        functions: [
          { code: 'CLOSURE 1\nDEFINE_GLOBAL 0\nGET_GLOBAL 0\nCALL 0\nRETURN' },
          { name: 'f', code: 'GET_GLOBAL 0\nCALL 0\nRETURN' },
        ],
      },
      { maxFrames: 5000, fuel: Infinity },
    );
    expect(fiber.error!.trace.length).toBe(5000);
  });

  it('limits the value stack', () => {
    const { fiber } = run(
      {
        globals: ['f'],
        functions: [
          { code: 'CLOSURE 1\nDEFINE_GLOBAL 0\nGET_GLOBAL 0\nCALL 0\nRETURN' },
          { name: 'f', maxStack: 100, code: 'GET_GLOBAL 0\nCALL 0\nRETURN' },
        ],
      },
      { maxFrames: 100_000, maxStack: 5000 },
    );
    expect(fiber.error!.limit).toBe('stack');
    expect(fiber.error!.message).toBe('Stack overflow: the script used more than 5000 stack slots.');
  });

  it('limits the heap: string doubling runs out', () => {
    // s = "ab"; while (true) s = s + s;
    const { fiber } = run(
      { constants: ['ab'], functions: [{ code: 'CONSTANT 0\ntop:\nGET_LOCAL 1\nGET_LOCAL 1\nADD\nSET_LOCAL 1\nPOP\nLOOP top' }] },
      { maxHeap: 1_000_000 },
    );
    expect(fiber.error!.limit).toBe('heap');
  });

  it('limits the heap: appending forever runs out', () => {
    const { fiber } = run(
      { constants: ['append'], functions: [{ code: 'BUILD_LIST 0\ntop:\nGET_LOCAL 1\nNIL\nINVOKE 0 1\nPOP\nLOOP top' }] },
      { maxHeap: 10_000, fuel: Infinity },
    );
    expect(fiber.error!.limit).toBe('heap');
  });

  it('overrides budgets per cast', () => {
    const vm = new VM(
      assemble({ ...INFINITE_LOOP, spells: [{ name: 'spin', functionIndex: 1 }], functions: [{ code: 'NIL\nRETURN' }, { name: 'spin', kind: 'spell', code: 'top:\nLOOP top' }] }),
      { print: () => {} },
    );
    const fiber = vm.cast('spin', [], { fuel: 50 });
    expect(fiber.error!.message).toBe('Out of fuel: the cast ran more than 50 instructions.');
    expect(fiber.error!.spell).toBe('spin');
    expect(fiber.error!.trace).toEqual([{ functionName: 'spin', line: 1 }]);
  });
});

function host(name: string, params: HostFunction['params'], impl: HostFunction['impl']): HostFunction {
  return { name, params, returns: 'any', doc: name, impl };
}

describe('host functions', () => {
  const wait = host('wait', [{ name: 's', type: 'number' }], (ctx, s) => {
    ctx.checkWait(s as number);
    ctx.suspend();
    return null;
  });

  it('suspends a fiber and resumes it with a value; other fibers run meanwhile', () => {
    const module = assemble({
      constants: [1, 'after'],
      hostImports: [{ name: 'wait', arities: [1] }],
      spells: [{ name: 'nap', functionIndex: 1 }],
      functions: [
        { code: 'NIL\nRETURN' },
        { name: 'nap', kind: 'spell', arity: 1, code: 'CONSTANT 0\nCALL_HOST 0 1\nPRINT\nGET_LOCAL 1\nPRINT\nCONSTANT 1\nRETURN' },
      ],
    });
    const out: string[] = [];
    const vm = new VM(module, { hosts: [wait], print: (t) => out.push(t) });
    const a = vm.cast('nap', ['a']);
    const b = vm.cast('nap', ['b']);
    expect([a.state, b.state]).toEqual(['suspended', 'suspended']);
    expect(vm.liveFiberCount).toBe(2);
    vm.resume(b, 'woke b');
    vm.resume(a, 'woke a');
    expect(out).toEqual(['woke b', 'b', 'woke a', 'a']);
    expect(a.state).toBe('done');
    expect(a.result).toBe('after');
    expect(vm.liveFiberCount).toBe(0);
  });

  it('limits live fibers and the longest wait', () => {
    const module = assemble({
      constants: [1, 1e9],
      hostImports: [{ name: 'wait', arities: [1] }],
      spells: [
        { name: 'nap', functionIndex: 1 },
        { name: 'sleep', functionIndex: 2 },
      ],
      functions: [
        { code: 'NIL\nRETURN' },
        { name: 'nap', kind: 'spell', code: 'CONSTANT 0\nCALL_HOST 0 1\nRETURN' },
        { name: 'sleep', kind: 'spell', code: 'CONSTANT 1\nCALL_HOST 0 1\nRETURN' },
      ],
    });
    const vm = new VM(module, { hosts: [wait], maxFibers: 2 });
    vm.cast('nap', []);
    vm.cast('nap', []);
    const third = vm.cast('nap', []);
    expect(third.error!.limit).toBe('fibers');
    const vm2 = new VM(module, { hosts: [wait], maxWait: 60 });
    expect(vm2.cast('sleep', []).error!.message).toBe('Wait too long: the longest wait allowed is 60 seconds (budgets.maxWait).');
  });

  it('checks argument types, and turns host errors and JS exceptions into spell errors', () => {
    const hosts = [
      ...CORE_HOST_FUNCTIONS,
      host('damage', [{ name: 'target', type: 'entity' }, { name: 'amount', type: 'number' }], () => null),
      host('explode', [], () => {
        throw new HostError('Entity is gone.');
      }),
      host('crash', [], () => {
        throw new TypeError('x is undefined');
      }),
    ];
    const call = (name: string, args: string) => {
      const module = assemble({
        constants: [1],
        hostImports: [{ name, arities: [args.split('\n').filter(Boolean).length] }],
        functions: [{ code: `@4\n${args}\nCALL_HOST 0 ${args.split('\n').filter(Boolean).length}\nRETURN` }],
      });
      return new VM(module, { hosts }).runScript().error;
    };
    expect(call('damage', 'CONSTANT 0\nCONSTANT 0')!.message).toBe('Argument 1 of damage() must be an entity.');
    expect(call('explode', '')!.message).toBe('Entity is gone.');
    const crash = call('crash', '')!;
    expect(crash.message).toBe("Host function 'crash' failed: x is undefined");
    expect(crash.trace).toEqual([{ functionName: '', line: 4 }]);
    expect(call('len', 'CONSTANT 0')!.message).toBe('Argument 1 of len() must be a list, a map or a string.');
  });

  it('fails to load a module whose host imports the host does not provide', () => {
    const missing = assemble({ hostImports: [{ name: 'teleport', arities: [1] }], functions: [{ code: 'NIL\nRETURN' }] });
    expect(() => new VM(missing)).toThrow(VerifyError);
    const arity = assemble({ hostImports: [{ name: 'len', arities: [2] }], functions: [{ code: 'NIL\nRETURN' }] });
    expect(() => new VM(arity)).toThrow(/takes 1 arguments but the module calls it with 2/);
  });

  it('calls host functions as values, checking arity at run time', () => {
    const { out, fiber } = run({
      constants: ['spell'],
      hostImports: [{ name: 'len', arities: [] }],
      functions: [{ code: 'HOST_FUNCTION 0\nDUP\nPRINT\nCONSTANT 0\nCALL 1\nPRINT\nHOST_FUNCTION 0\nCALL 0\nRETURN' }],
    });
    expect(out).toEqual(['<native fn>', '5']);
    expect(fiber.error!.message).toBe('len() expects 1 argument (x) but got 0.');
  });

  it('charges host work to the fuel budget even if the host swallows the error', () => {
    const greedy = host('greedy', [], (ctx) => {
      try {
        ctx.chargeFuel(1e9);
      } catch {
        // swallowed on purpose
      }
      return 1;
    });
    const module = assemble({ hostImports: [{ name: 'greedy', arities: [0] }], functions: [{ code: 'CALL_HOST 0 0\nRETURN' }] });
    expect(new VM(module, { hosts: [greedy] }).runScript().error!.limit).toBe('fuel');
  });

  it('reads, writes and invokes host objects through their interface only', () => {
    const props = new Map<string, Value>([['health', 10]]);
    const entity: HostObject = {
      objectType: 'host',
      hostType: 'entity',
      getProperty: (name) => props.get(name),
      setProperty: (name, value) => {
        if (name === 'id') throw new HostError("Property 'id' is read-only.");
        props.set(name, value);
      },
      invokeMethod: (name, args) => (name === 'hurt' ? (props.get('health') as number) - (args[0] as number) : undefined),
      display: () => '<entity troll>',
      equals: (other) => other === entity,
    };
    const hosts = [host('me', [], () => entity)];
    const prog = (code: string) =>
      run(
        { constants: ['health', 3, 'hurt', '__proto__', 'id'], hostImports: [{ name: 'me', arities: [0] }], functions: [{ code: code + '\nNIL\nRETURN' }] },
        { hosts },
      );
    expect(prog('CALL_HOST 0 0\nGET_PROPERTY 0\nPRINT\nCALL_HOST 0 0\nCONSTANT 1\nINVOKE 2 1\nPRINT\nCALL_HOST 0 0\nPRINT').out).toEqual([
      '10',
      '7',
      '<entity troll>',
    ]);
    expect(prog('CALL_HOST 0 0\nGET_PROPERTY 3').fiber.error!.message).toBe("Undefined property '__proto__'.");
    expect(prog('CALL_HOST 0 0\nCONSTANT 1\nSET_PROPERTY 4').fiber.error!.message).toBe("Property 'id' is read-only.");
    expect(prog('CALL_HOST 0 0\nCALL_HOST 0 0\nEQUAL\nPRINT').out).toEqual(['true']);
  });
});

describe('entry points', () => {
  it('casts spells and calls global functions with arguments, running the script first', () => {
    const module = assemble({
      constants: [1, 'hello'],
      globals: ['add1'],
      spells: [{ name: 'greet', functionIndex: 2 }],
      functions: [
        { code: 'CONSTANT 1\nPRINT\nCLOSURE 1\nDEFINE_GLOBAL 0\nNIL\nRETURN' },
        { name: 'add1', arity: 1, code: 'GET_LOCAL 1\nCONSTANT 0\nADD\nRETURN' },
        { name: 'greet', kind: 'spell', arity: 2, code: 'GET_LOCAL 1\nGET_LOCAL 2\nADD\nRETURN' },
      ],
    });
    const out: string[] = [];
    const vm = new VM(module, { print: (t) => out.push(t) });
    expect(vm.spellNames()).toEqual(['greet']);
    expect(vm.call('add1', [41]).result).toBe(42);
    expect(out).toEqual(['hello']);
    expect(vm.cast('greet', ['a', 'b']).result).toBe('ab');
    expect(vm.cast('greet', ['a']).error!.message).toBe('Expected 2 arguments but got 1.');
    expect(vm.cast('nope', []).error!.message).toBe("Undefined spell 'nope'.");
    expect(vm.call('nope', []).error!.message).toBe("Undefined variable 'nope'.");
  });

  it('stays usable after a fiber fails', () => {
    const module = assemble({
      constants: [1],
      spells: [
        { name: 'bad', functionIndex: 1 },
        { name: 'good', functionIndex: 2 },
      ],
      functions: [{ code: 'NIL\nRETURN' }, { name: 'bad', kind: 'spell', code: 'TRUE\nNEGATE\nRETURN' }, { name: 'good', kind: 'spell', code: 'CONSTANT 0\nRETURN' }],
    });
    const vm = new VM(module);
    expect(vm.cast('bad', []).state).toBe('failed');
    expect(vm.cast('good', []).result).toBe(1);
  });
});
