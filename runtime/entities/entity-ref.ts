/**
 * How spells see entities: a HostObject holding a pool handle. Every access
 * goes through the world, which checks the handle's generation first, so a
 * reference kept after the entity died reads `alive == false` and fails
 * with "Entity is gone." on anything else — never another entity's data.
 * Property names are looked up by the world (switch + Map), never on a JS
 * object, so `__proto__` or `constructor` are ordinary names.
 */

import type { HostContext, HostObject } from '../../vm/host.js';
import type { Value } from '../../vm/value.js';
import type { EntityHandle } from './entity-pool.js';
import type { EntityId } from '../events/events.js';

/** What an EntityRef needs from its world. */
export interface EntityAccess {
  getEntityProperty(ref: EntityRef, name: string): Value | undefined;
  setEntityProperty(ref: EntityRef, name: string, value: Value): void;
  invokeEntityMethod(ref: EntityRef, name: string, args: readonly Value[], ctx: HostContext): Value | undefined;
}

export class EntityRef implements HostObject {
  readonly objectType = 'host' as const;
  readonly hostType = 'entity';

  constructor(
    readonly world: EntityAccess,
    /** Pool handle; 0 for an entity that was already gone when the reference was made. */
    readonly handle: EntityHandle,
    readonly id: EntityId,
    readonly breedName: string,
  ) {}

  getProperty(name: string): Value | undefined {
    return this.world.getEntityProperty(this, name);
  }

  setProperty(name: string, value: Value): void {
    this.world.setEntityProperty(this, name, value);
  }

  invokeMethod(name: string, args: readonly Value[], ctx: HostContext): Value | undefined {
    return this.world.invokeEntityMethod(this, name, args, ctx);
  }

  display(): string {
    return `<${this.breedName} #${this.id}>`;
  }

  equals(other: HostObject): boolean {
    return other instanceof EntityRef && other.world === this.world && other.id === this.id;
  }

  /** Map key: equal for every handle to this entity (see equals). */
  mapKey(): string {
    return `entity#${this.id}`;
  }
}
