/**
 * Values as the VM sees them. Numbers, strings and booleans stay plain JS
 * values (unboxed); nil is `null`; everything else is a VM object class
 * defined in vm/objects.ts, or a HostObject the embedder supplies (entities).
 */

import type { HostContext } from './host.js';

/** Object types the VM allocates (closures, classes, instances, lists …). */
export interface VmObject {
  readonly objectType: string;
}

export type Value = number | string | boolean | null | VmObject | HostObject;

/**
 * Objects the host lends to spells (entities). Property names are looked up
 * by the host, never on the JS object itself, so `__proto__` or `constructor`
 * stay ordinary names.
 */
export interface HostObject {
  readonly objectType: 'host';
  /** Type name for messages, e.g. 'entity'. */
  readonly hostType: string;
  /** `undefined` means "Undefined property 'name'.". Throw HostError for other failures ("Entity is gone."). */
  getProperty(name: string): Value | undefined;
  /** Throw HostError to refuse (read-only property, gone entity). */
  setProperty(name: string, value: Value): void;
  /** Method call `obj.name(args)`; `undefined` means "Undefined property 'name'.". */
  invokeMethod(name: string, args: readonly Value[], ctx: HostContext): Value | undefined;
  /** How `print` shows it. */
  display(): string;
  /** Identity for `==`: two handles to the same entity compare equal. */
  equals(other: HostObject): boolean;
  /**
   * Optional: a string equal for two handles that `equals` each other, so a
   * map finds one entry for both (e.g. 'entity#12'). Without it a map keys
   * the object by reference.
   */
  mapKey?(): string;
}

/** The value types host function signatures declare. */
export type ValueType = 'number' | 'string' | 'bool' | 'list' | 'entity' | 'function' | 'any' | 'nil' | 'map';
