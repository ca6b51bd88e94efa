/**
 * The game's own host functions in a World (`new World({ hosts })`): joined
 * to the built-in table (a name that collides with a built-in is a
 * WorldError), and wrapped so that the implementation sees the cast it runs
 * in — the world, the caster, the spell — through a WorldHostContext, and
 * gets entity arguments already checked to be entities of this world.
 */

import { KEYWORDS } from '../../compiler/tokens.js';
import { HostError } from '../../vm/errors.js';
import type { Fiber } from '../../vm/fiber.js';
import type { HostContext, HostFunction, HostParam, TypedHostFunction } from '../../vm/host.js';
import { joinHostTables } from '../../vm/host-table.js';
import type { Value, ValueType } from '../../vm/value.js';
import { EntityRef } from '../entities/entity-ref.js';
import { WorldError } from '../errors.js';
import { WORLD_HOST_FUNCTIONS, currentCast, type CastContext } from './host-api.js';
import type { World } from '../world/world.js';

/** What a game's host function sees in a World: the VM's context plus the cast it runs in. */
export interface WorldHostContext extends HostContext {
  /** The world the spell was cast in (its embedder API: spawn, move, property, emit …). */
  readonly world: World;
  /** The entity that cast the spell, or null (a cast from the embedder without a caster, a module's top-level script). */
  readonly caster: EntityRef | null;
  /** The spell being cast ('<script>' while a module's top-level code runs). */
  readonly spell: string;
  /**
   * Suspend the cast for `seconds` of game time once the function returns (as
   * `wait` does); the world resumes it and the call's result is nil. Refused
   * with the 'wait' budget error past the cast's maxWait.
   */
  wait(seconds: number): void;
}

/** A game host function with typed arguments, for `new World({ hosts })`: entity arguments are EntityRefs of the world. */
export type TypedWorldHostFunction<P extends readonly HostParam[], R extends ValueType> = TypedHostFunction<P, R, WorldHostContext, EntityRef>;

/**
 * Declare a game host function with typed arguments and a WorldHostContext:
 *
 *   const giveItem = worldHostFunction({
 *     name: 'giveItem',
 *     params: [{ name: 'target', type: 'entity' }, { name: 'item', type: 'string' }],
 *     returns: 'nil',
 *     doc: 'Put an item in an entity's bag.',
 *     impl: (ctx, target, item) => { bags.add(target.id, item); return null; },
 *   });
 *   const world = new World({ width: 100, height: 100, hosts: [giveItem] });
 */
export function worldHostFunction<const P extends readonly HostParam[], const R extends ValueType>(def: TypedWorldHostFunction<P, R>): HostFunction {
  // Sound because the VM checks every argument's type, and the world that it is one of its entities, before `impl` runs.
  return def as unknown as HostFunction;
}

const RESERVED: ReadonlySet<string> = new Set(KEYWORDS);

/** The world's whole host table: the built-ins, then the game's functions wrapped for this world. WorldError on a bad or colliding declaration. */
export function worldHostTable(world: World, extra: readonly HostFunction[] | undefined): readonly HostFunction[] {
  if (extra === undefined || extra.length === 0) return WORLD_HOST_FUNCTIONS;
  const joined = joinHostTables(WORLD_HOST_FUNCTIONS, extra, RESERVED);
  if ('problem' in joined) throw new WorldError(joined.problem);
  for (const h of extra) {
    if (typeof h.impl !== 'function') throw new WorldError(`Host function '${h.name}' has no implementation ('impl').`);
  }
  const context = new WorldCallContext(world);
  return [...WORLD_HOST_FUNCTIONS, ...extra.map((h) => wrapForWorld(h, world, context))];
}

/** The same declaration, with an implementation that checks entity arguments and hands over a WorldHostContext. */
function wrapForWorld(host: HostFunction, world: World, context: WorldCallContext): HostFunction {
  const entityParams = host.params.flatMap((p, i) => (p.type === 'entity' ? [i] : []));
  const name = host.name;
  const impl = host.impl;
  return {
    name,
    params: host.params,
    returns: host.returns,
    doc: host.doc,
    impl: (ctx, ...args) => {
      const cast = currentCast();
      if (cast === null || cast.host !== (world as unknown)) throw new HostError(`${name}() can only be used in a spell cast on its world.`);
      for (const i of entityParams) {
        const arg = args[i];
        if (arg === undefined || arg === null) continue; // an optional entity left out (or nil, where the type allows it)
        if (!(arg instanceof EntityRef) || arg.world !== (world as unknown)) {
          throw new HostError(`Argument ${i + 1} of ${name}() must be an entity of this world.`);
        }
      }
      return context.call(ctx, cast, impl, args);
    },
  };
}

/** One per world, re-pointed at the calling cast for each call (saved and restored, so a game function may cast again). */
class WorldCallContext implements WorldHostContext {
  private base: HostContext | null = null;
  private cast: CastContext | null = null;

  constructor(readonly world: World) {}

  call(base: HostContext, cast: CastContext, impl: HostFunction['impl'], args: Value[]): Value {
    const savedBase = this.base;
    const savedCast = this.cast;
    this.base = base;
    this.cast = cast;
    try {
      return impl(this, ...args);
    } finally {
      this.base = savedBase;
      this.cast = savedCast;
    }
  }

  private get inCall(): HostContext {
    if (this.base === null) throw new HostError('A host context was used after its call returned; do not keep it.');
    return this.base;
  }

  get caster(): EntityRef | null {
    const id = this.cast?.caster ?? null;
    return id === null || !this.world.isAlive(id) ? null : this.world.entityRef(id);
  }

  get spell(): string {
    return this.cast?.spell ?? '';
  }

  wait(seconds: number): void {
    const base = this.inCall;
    if (!(seconds >= 0) || !Number.isFinite(seconds)) throw new HostError('wait() needs a finite number of seconds ≥ 0.');
    base.checkWait(seconds);
    this.cast!.wakeAt = this.world.time + seconds;
    base.suspend();
  }

  suspend(): void {
    const base = this.inCall;
    // Without a wake time the world resumes the cast at the next step.
    this.cast!.wakeAt = this.world.time;
    base.suspend();
  }

  chargeFuel(amount: number): void {
    this.inCall.chargeFuel(amount);
  }

  get remainingFuel(): number {
    return this.inCall.remainingFuel;
  }

  chargeHeap(amount: number): void {
    this.inCall.chargeHeap(amount);
  }

  chargeOutput(chars: number): void {
    this.inCall.chargeOutput(chars);
  }

  checkWait(seconds: number): void {
    this.inCall.checkWait(seconds);
  }

  get maxWait(): number {
    return this.inCall.maxWait;
  }

  makeList(items: readonly Value[]): Value {
    return this.inCall.makeList(items);
  }

  get fiber(): Fiber | null {
    return this.inCall.fiber;
  }

  get line(): number {
    return this.inCall.line;
  }
}
