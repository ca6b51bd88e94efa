/**
 * Values as the VM sees them. Numbers, strings and booleans stay plain JS
 * values (unboxed); nil is `null`; everything else is a VM object class
 * defined in vm/objects.ts, or a HostObject the embedder supplies (entities).
 */

import type { HostObject } from './host.js';

/** Object types the VM allocates (closures, classes, instances, lists …). */
export interface VmObject {
  readonly objectType: string;
}

export type Value = number | string | boolean | null | VmObject | HostObject;

/** The value types host function signatures declare. */
export type ValueType = 'number' | 'string' | 'bool' | 'list' | 'entity' | 'function' | 'any' | 'nil' | 'map';
