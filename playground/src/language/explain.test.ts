import { describe, expect, it } from 'vitest';
import { compile } from '../../../compiler/index.js';
import { WORLD_HOST_FUNCTIONS } from '../../../runtime/host/host-api.js';
import { World } from '../../../runtime/world/world.js';
import { VM } from '../../../vm/vm.js';
import { explainBudgetError, explainScriptError, explainWorldLoadError } from './explain.js';

/** What Run shows for `source`: the failure text the VM gives, run outside any cast. */
function runOutsideCast(source: string): string {
  const { module } = compile(source, { hosts: WORLD_HOST_FUNCTIONS });
  const fiber = new VM(module!, { hosts: WORLD_HOST_FUNCTIONS, print: () => {} }).runScript();
  return fiber.error!.format();
}

function worldLoadError(source: string): string {
  const world = new World({ width: 10, height: 10 });
  try {
    world.loadSpells(source, 'spell.cantrip');
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected the load to fail');
}

describe('explaining world functions in top-level code', () => {
  it('tells Run users to put a world call in a spell and cast it, keeping the trace', () => {
    const text = runOutsideCast('print "hi";\nspawn("Troll", 3, 4);\n');
    const explained = explainScriptError(text);
    expect(explained).toMatch(/^spawn\(\) acts on the world, so it only works inside a spell that is cast\./);
    expect(explained).toContain('spell setup(caster, target) { spawn(…); }');
    expect(explained.split('\n').slice(1)).toEqual(['[line 2] in script']);
  });

  it('says a Run ran out of fuel as a script, with readable numbers and why there is a budget', () => {
    const { module } = compile('while (true) {}\n', { hosts: WORLD_HOST_FUNCTIONS });
    const fiber = new VM(module!, { hosts: WORLD_HOST_FUNCTIONS, fuel: 5_000_000 }).runScript();
    const explained = explainScriptError(fiber.error!.format());
    expect(explained.split('\n')[0]).toBe(
      'Out of fuel: the script ran more than 5,000,000 instructions. The playground gives every run a budget, so an endless loop cannot freeze the page.',
    );
    expect(explained.split('\n')[1]).toBe('[line 1] in script');
    expect(explainBudgetError('Stack overflow.\n[line 1] in f()')).toBe('Stack overflow.\n[line 1] in f()');
  });

  it("explains a world function whose arguments failed at top level (damage(t, 3) with no entity), keeping the argument error", () => {
    const text = runOutsideCast('var t = 1;\ndamage(t, 3);\n');
    expect(text.split('\n')[0]).toBe('Argument 1 of damage() must be an entity.');
    const explained = explainScriptError(text, new Set(['damage', 'spawn']));
    expect(explained).toMatch(/^damage\(\) acts on the world, so it only works inside a spell that is cast\./);
    expect(explained.split('\n')[0]).toContain('(Here it also failed with: Argument 1 of damage() must be an entity.)');
    expect(explained.split('\n').slice(1)).toEqual(['[line 2] in script']);
    // A function that does not act on the world keeps its own message.
    const len = runOutsideCast('len(1);\n');
    expect(explainScriptError(len, new Set(['damage']))).toBe(len);
  });

  it('leaves other errors alone', () => {
    const text = runOutsideCast('print 1 + nil;\n');
    expect(explainScriptError(text)).toBe(text);
  });

  it('explains a world that cannot load spells whose top-level code acts on the world', () => {
    const message = worldLoadError('spawn("Troll", 1, 1);\nspell s(c, t) {}\n');
    expect(explainWorldLoadError(message)).toMatch(/^The world runs the top-level code of your spells each time it loads them.*it failed: No breeds are loaded\. Keep/);
    expect(explainWorldLoadError('Spell \'x\' is defined twice.')).toBe("The world cannot load this spell: Spell 'x' is defined twice.");
  });
});
