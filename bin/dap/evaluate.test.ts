import { describe, expect, it } from 'vitest';
import { compile } from '../../compiler/index.js';
import { WORLD_HOST_FUNCTIONS } from '../../runtime/host/host-api.js';
import { Debugger } from '../../vm/debugger.js';
import { displayValue } from '../../vm/display.js';
import { VM } from '../../vm/vm.js';
import { evaluate, type EvaluationScope } from './evaluate.js';
import { READ_ONLY_HOSTS } from './read-only-hosts.js';

const SOURCE = `var level = 3;
class Goblin {
  init(name) { this.name = name; this.loot = ["coin"]; }
  shout(times) {
    var word = this.name + "!";
    fun echo() { return word + str(times); }
    return echo();
  }
}
var g = Goblin("Grik");
print g.shout(2);
`;

/** A scope paused at line 6 (inside echo, which captures word and times), or in shout at line 5. */
function pausedAt(line: number, frame = 0): { scope: EvaluationScope; printed: string[] } {
  const { module } = compile(SOURCE, { hosts: WORLD_HOST_FUNCTIONS });
  const printed: string[] = [];
  const vm = new VM(module!, { hosts: WORLD_HOST_FUNCTIONS, print: (t) => printed.push(t) });
  const dbg = new Debugger(vm);
  dbg.attach();
  dbg.setBreakpoints([line]);
  const fiber = vm.runScript();
  expect(fiber.state).toBe('paused');
  const values = dbg.frameValues(fiber, frame)!;
  return {
    scope: { ...values, global: (name) => vm.getGlobal(name), hosts: WORLD_HOST_FUNCTIONS, cast: null },
    printed,
  };
}

const shown = (scope: EvaluationScope, text: string) => {
  const outcome = evaluate(text, scope);
  if (!outcome.ok) throw new Error(outcome.message);
  return displayValue(outcome.value);
};

describe('evaluate', () => {
  it('reads locals, captured variables, globals and this, compiled by the compiler', () => {
    const { scope } = pausedAt(6);
    expect(shown(scope, 'word + str(times * level)')).toBe('Grik!6');
    const inMethod = pausedAt(5).scope;
    expect(shown(inMethod, 'this.name + " has " + str(len(this.loot))')).toBe('Grik has 1');
    expect(shown(inMethod, '`${this.loot[0]} x${times}`')).toBe('coin x2');
    expect(shown(inMethod, '{"a": [1, 2], "b": times > 1 and level == 3}')).toBe('{a: [1, 2], b: true}');
  });

  it('refuses what could change the program, with a message that says what', () => {
    const { scope, printed } = pausedAt(5);
    const refused = (text: string) => {
      const outcome = evaluate(text, scope);
      expect(outcome.ok).toBe(false);
      return outcome.ok ? '' : outcome.message;
    };
    expect(refused('level = 4')).toMatch(/does not assign to 'level'/);
    expect(refused('times -= 1')).toMatch(/does not assign to 'times'/);
    expect(refused('this.name = "x"')).toMatch(/does not assign to the field 'name'/);
    expect(refused('this.loot[0] = 1')).toMatch(/does not assign to an element/);
    expect(refused('this.shout(1)')).toMatch(/does not call methods/);
    expect(refused('this.loot.append(1)')).toMatch(/does not call methods/);
    expect(refused('Goblin("x")')).toMatch(/does not call the program's functions/);
    expect(refused('damage(g, 1)')).toMatch(/does not call damage\(\): it has effects/);
    expect(refused('random()')).toMatch(/does not call random\(\)/);
    expect(refused('[1][0]()')).toMatch(/only calls host functions by name/);
    expect(refused('var x = 1')).toMatch(/one expression/);
    expect(refused('1); print (2')).toBeTruthy();
    expect(refused('   ')).toBe('Nothing to evaluate.');
    expect(refused('missing')).toBe("Undefined variable 'missing'.");
    // Nothing ran: the program goes on exactly as before.
    expect(printed).toEqual([]);
    expect(shown(scope, 'level')).toBe('3');
  });

  it('a runtime error in the expression is its message; a name shadowing a host function is the frame value', () => {
    const { scope } = pausedAt(5);
    expect(evaluate('this.loot[7]', scope)).toEqual({ ok: false, message: 'List index out of range.' });
    const shadowing: EvaluationScope = { ...scope, locals: [...scope.locals, { name: 'len', value: 12 }] };
    expect(shown(shadowing, 'len + 1')).toBe('13');
    expect(evaluate('len(this.loot)', shadowing).ok).toBe(false);
  });

  it('every read-only host function is a real one', () => {
    const names = new Set(WORLD_HOST_FUNCTIONS.map((h) => h.name));
    for (const name of READ_ONLY_HOSTS) expect(names.has(name), name).toBe(true);
  });
});
