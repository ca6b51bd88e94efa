/**
 * Tampered world snapshots with casts in flight: every mutation of the saved
 * VM state is refused with a Cantrip error, or restores to a world that runs
 * — never a raw JS exception.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BreedError, WorldError } from '../../runtime/errors.js';
import { World } from '../../runtime/world/world.js';
import { SpellRuntimeError, VerifyError } from '../../vm/errors.js';

const SPELLS = `
var total = 0;
class Box { init(v) { this.v = v; } get() { return this.v; } }
fun adder() { var n = 0; fun add(x) { n += x; return n; } return add; }
fun deep(t, add, items) { wait(0.3); damage(t, add(len(items))); return Box(items); }
spell hex(caster, target) {
  var add = adder();
  var items = [1, "two", nil, true];
  items.append(items);
  var box = deep(target, add, items);
  total += box.get()[0];
  wait(0.2);
  print str(total) + " " + str(len(box.get()));
}
`;

function inFlight(): unknown {
  const world = new World({ width: 20, height: 20, seed: 2 });
  world.loadSpells(SPELLS, 'hex.spell');
  world.loadBreeds({ breeds: [{ name: 'Imp', health: 50 }] });
  const a = world.spawn('Imp', 1, 1);
  const b = world.spawn('Imp', 2, 2);
  world.cast('hex', a, b);
  world.cast('hex', b, a);
  world.step();
  return JSON.parse(JSON.stringify(world.snapshot()));
}

const BASE = inFlight();

/** Every path to a leaf (or a node) inside spellState. */
function paths(node: unknown, at: (string | number)[] = ['spellState']): (string | number)[][] {
  const out: (string | number)[][] = [at];
  if (node !== null && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) out.push(...paths(v, [...at, Array.isArray(node) ? Number(k) : k]));
  }
  return out;
}

const PATHS = paths((BASE as { spellState: unknown }).spellState);
const REPLACEMENTS: unknown[] = [null, 0, -1, 1, 2, 1e9, 0.5, NaN, '', 'closure', true, [], {}, { r: 0 }, { r: 99999 }, { n: 'NaN' }, { u: 1 }];

function set(root: unknown, path: (string | number)[], value: unknown): void {
  let node = root as Record<string | number, unknown>;
  for (let i = 0; i < path.length - 1; i++) {
    node = node[path[i]!] as Record<string | number, unknown>;
    if (node === null || typeof node !== 'object') return; // an earlier edit replaced this branch
  }
  node[path[path.length - 1]!] = value;
}

describe('tampered snapshots with casts in flight', () => {
  it('are refused with a Cantrip error or restore to a world that runs', () => {
    expect(PATHS.length).toBeGreaterThan(50);
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat({ max: PATHS.length - 1 }), fc.nat({ max: REPLACEMENTS.length - 1 })), { minLength: 1, maxLength: 3 }), (edits) => {
        const data = structuredClone(BASE);
        for (const [p, r] of edits) {
          const path = PATHS[p]!;
          if (path.length < 2) continue;
          set(data, path, structuredClone(REPLACEMENTS[r]));
        }
        let world: World;
        try {
          world = World.restore(data as never);
        } catch (error) {
          expect(error instanceof WorldError || error instanceof BreedError || error instanceof VerifyError, String(error)).toBe(true);
          return;
        }
        for (let i = 0; i < 8; i++) {
          try {
            world.step();
          } catch (error) {
            expect(error instanceof WorldError || error instanceof SpellRuntimeError, String(error)).toBe(true);
          }
        }
      }),
      { numRuns: 400, seed: 10 },
    );
  }, 120_000);
});
