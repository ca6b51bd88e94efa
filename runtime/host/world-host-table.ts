/**
 * A world's host table: the built-ins, then the game's own host functions
 * joined to them (a name that collides with a built-in is a WorldError) and
 * wrapped so that the implementation sees the cast it runs in through a
 * WorldHostContext (world-hosts.ts), and gets entity arguments already
 * checked to be entities of this world. The world is known here only by
 * what the context reads of it, so the world and its table import each
 * other in one direction.
 */

import { KEYWORDS } from '../../compiler/tokens.js';
import { HostError } from '../../vm/errors.js';
import type { Fiber } from '../../vm/fiber.js';
import type { HostContext, HostFunction } from '../../vm/host.js';
import { joinHostTables } from '../../vm/host-table.js';
import type { Value } from '../../vm/value.js';
import { EntityRef } from '../entities/entity-ref.js';
import type { EntityId } from '../events/events.js';
import { WorldError } from '../errors.js';
import { WORLD_HOST_FUNCTIONS, castIn, type CastContext, type GameHost } from './host-api.js';

/** What the context of a game's host function reads of its world. */
export interface HostWorld {
  readonly time: number;
  isAlive(id: EntityId): boolean;
  entityRef(id: EntityId): EntityRef | null;
}

const RESERVED: ReadonlySet<string> = new Set(KEYWORDS);

/** The world's whole host table: the built-ins, then the game's functions wrapped for this world. WorldError on a bad or colliding declaration. */
export function worldHostTable<W extends HostWorld>(world: W, host: GameHost, extra: readonly HostFunction[] | undefined): readonly HostFunction[] {
  if (extra === undefined || extra.length === 0) return WORLD_HOST_FUNCTIONS;
  const joined = joinHostTables(WORLD_HOST_FUNCTIONS, extra, RESERVED);
  if ('problem' in joined) throw new WorldError(joined.problem);
  for (const h of extra) {
    if (typeof h.impl !== 'function') throw new WorldError(`Host function '${h.name}' has no implementation ('impl').`);
  }
  const context = new WorldCallContext(world);
  return [...WORLD_HOST_FUNCTIONS, ...extra.map((h) => wrapForWorld(h, host, context))];
}

/** The same declaration, with an implementation that checks entity arguments and hands over a WorldHostContext. */
function wrapForWorld<W extends HostWorld>(fn: HostFunction, host: GameHost, context: WorldCallContext<W>): HostFunction {
  const entityParams = fn.params.flatMap((p, i) => (p.type === 'entity' ? [i] : []));
  const name = fn.name;
  const impl = fn.impl;
  return {
    name,
    params: fn.params,
    returns: fn.returns,
    doc: fn.doc,
    impl: (ctx, ...args) => {
      const cast = castIn(ctx);
      if (cast === null || cast.host !== host) throw new HostError(`${name}() can only be used in a spell cast on its world.`);
      for (const i of entityParams) {
        const arg = args[i];
        if (arg === undefined || arg === null) continue; // an optional entity left out (or nil, where the type allows it)
        if (!(arg instanceof EntityRef) || !host.owns(arg)) {
          throw new HostError(`Argument ${i + 1} of ${name}() must be an entity of this world.`);
        }
      }
      return context.call(ctx, cast, impl, args);
    },
  };
}

/** One per world, re-pointed at the calling cast for each call (saved and restored, so a game function may cast again). */
export class WorldCallContext<W extends HostWorld> implements HostContext {
  private base: HostContext | null = null;
  private running: CastContext | null = null;

  constructor(readonly world: W) {}

  call(base: HostContext, cast: CastContext, impl: HostFunction['impl'], args: Value[]): Value {
    const savedBase = this.base;
    const savedCast = this.running;
    this.base = base;
    this.running = cast;
    try {
      return impl(this, ...args);
    } finally {
      this.base = savedBase;
      this.running = savedCast;
    }
  }

  private get inCall(): HostContext {
    if (this.base === null) throw new HostError('A host context was used after its call returned; do not keep it.');
    return this.base;
  }

  get caster(): EntityRef | null {
    const id = this.running?.caster ?? null;
    return id === null || !this.world.isAlive(id) ? null : this.world.entityRef(id);
  }

  get spell(): string {
    return this.running?.spell ?? '';
  }

  wait(seconds: number): void {
    const base = this.inCall;
    if (!(seconds >= 0) || !Number.isFinite(seconds)) throw new HostError('wait() needs a finite number of seconds ≥ 0.');
    base.checkWait(seconds);
    this.running!.wakeAt = this.world.time + seconds;
    base.suspend();
  }

  suspend(): void {
    const base = this.inCall;
    // Without a wake time the world resumes the cast at the next step.
    this.running!.wakeAt = this.world.time;
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

  /** The world's cast the call runs in. */
  get cast(): CastContext | null {
    return this.running;
  }
}
