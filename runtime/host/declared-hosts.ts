/**
 * Host functions that are only declared (a game's API file, without the
 * game): each gets an implementation that does nothing but record a
 * `host-call` event and return a neutral value of its declared return type,
 * so `cantrip sim --api game-api.json` runs scenarios that call them.
 */

import { displayBounded } from '../../vm/display.js';
import type { HostFunction, HostFunctionSpec } from '../../vm/host.js';
import type { Value, ValueType } from '../../vm/value.js';
import type { WorldHostContext } from './world-hosts.js';

/** Characters of each argument an event shows. */
const MAX_SHOWN = 200;

/** 0, "", false or an empty list for those types; nil for the rest (there is no neutral entity or function). */
function neutral(type: ValueType, ctx: WorldHostContext): Value {
  switch (type) {
    case 'number':
      return 0;
    case 'string':
      return '';
    case 'bool':
      return false;
    case 'list':
      return ctx.makeList([]);
    default:
      return null;
  }
}

export function declaredOnlyHosts(specs: readonly HostFunctionSpec[]): HostFunction[] {
  return specs.map((spec) => ({
    name: spec.name,
    params: spec.params,
    returns: spec.returns,
    doc: spec.doc,
    impl: (base, ...args) => {
      const ctx = base as WorldHostContext;
      const world = ctx.world;
      world.emit({
        type: 'host-call',
        tick: world.steps,
        name: spec.name,
        args: args.map((a) => displayBounded(a, MAX_SHOWN) ?? '…'),
        spell: ctx.spell,
        caster: ctx.caster?.id ?? null,
      });
      return neutral(spec.returns, ctx);
    },
  }));
}
