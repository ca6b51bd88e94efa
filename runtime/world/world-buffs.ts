/**
 * Timed buffs: a modifier added to an entity's stat (the Dirty Flag in
 * EntityState re-sums it), and a binary heap of when each wears off, so
 * expiring them costs nothing until one is due.
 */

import { quoted } from '../../vm/bounded-text.js';
import { HostError } from '../../vm/errors.js';
import { BUFFABLE_FIELDS } from '../entities/entity-fields.js';
import type { EntityRef } from '../entities/entity-ref.js';
import { MAX_MODIFIERS, type Modifier } from '../entities/entity-state.js';
import type { EntityId } from '../events/events.js';
import { MinHeap } from './min-heap.js';
import type { WorldProperties } from './world-properties.js';
import { NONE, type WorldState } from './world-state.js';

interface ActiveBuff {
  readonly entity: EntityId;
  readonly modifier: Modifier;
}


export class WorldBuffs {
  private readonly heap = new MinHeap<ActiveBuff>(buffBefore);

  constructor(
    private readonly state: WorldState,
    private readonly properties: WorldProperties,
  ) {}

  /** Add `amount` to a stat of target for `seconds` (HostError for a stat that is not numeric, or too many buffs). */
  add(target: EntityRef, stat: string, amount: number, seconds: number): void {
    const s = this.state;
    const slot = s.slotOfRef(target);
    const state = s.states[slot]!;
    const attribute = s.breedAt(slot).attributes.get(stat);
    const own = state.getField(stat);
    const numeric = BUFFABLE_FIELDS.has(stat) || typeof (own ?? attribute) === 'number';
    if (!numeric || stat === 'health') throw new HostError(`Cannot buff ${quoted(stat)}: it is not a numeric stat of this entity.`);
    if (state.modifiers.length >= MAX_MODIFIERS) throw new HostError(`Too many buffs on this entity (at most ${MAX_MODIFIERS}).`);
    const modifier: Modifier = { stat, amount, seconds, expiresAt: s.time + seconds, seq: s.castSeq++ };
    state.addModifier(modifier);
    this.properties.afterStatChange(slot, stat);
    this.heap.push({ entity: target.id, modifier });
    s.push({ type: 'buff', tick: s.steps, entity: target.id, stat, amount, seconds });
  }

  /** Time a restored entity's modifier (already on its EntityState) to wear off. */
  track(entity: EntityId, modifier: Modifier): void {
    this.heap.push({ entity, modifier });
  }

  /** Remove every buff due by `now`, in order of expiry. */
  expireDue(now: number): void {
    while (this.heap.size > 0 && this.heap.peek()!.modifier.expiresAt <= now) this.expire(this.heap.pop()!);
  }

  private expire(buff: ActiveBuff): void {
    const s = this.state;
    const slot = s.liveSlotOf(buff.entity);
    if (slot === NONE) return;
    const { stat, amount, seconds } = buff.modifier;
    if (s.states[slot]!.removeModifier(buff.modifier)) {
      this.properties.afterStatChange(slot, stat);
      s.push({ type: 'buff-end', tick: s.steps, entity: buff.entity, stat, amount, seconds });
    }
  }
}

/** Buffs wear off in order of expiry, then of creation. */
function buffBefore(a: ActiveBuff, b: ActiveBuff): boolean {
  return a.modifier.expiresAt < b.modifier.expiresAt || (a.modifier.expiresAt === b.modifier.expiresAt && a.modifier.seq < b.modifier.seq);
}
