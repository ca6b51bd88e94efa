/**
 * Values as a debugger's Variables view shows them: one line of text each
 * (strings quoted, so `"3"` and `3` differ), and a handle to open the ones
 * that hold others — a list's elements, a map's entries, an instance's
 * fields, an entity's breed and fields. Handles live until the program runs
 * again (DAP's rule: variablesReference is valid while stopped).
 */
import { Handles } from '@vscode/debugadapter';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { EntityRef } from '../../runtime/entities/entity-ref.js';
import type { World } from '../../runtime/world/world.js';
import type { NamedValue } from '../../vm/debugger.js';
import { displayBounded } from '../../vm/display.js';
import { ObjMap } from '../../vm/map-object.js';
import { ObjInstance, ObjList } from '../../vm/objects.js';
import type { Value } from '../../vm/value.js';

/** Longest text a value shows on its line; the rest is behind its handle. */
const MAX_TEXT = 200;
/** Children one request lists when the editor asks for all of them (a list of 100,000 is paged). */
const MAX_CHILDREN = 1000;
/** Entity properties that are methods, not values. */
const ENTITY_METHODS = new Set(['is']);

type Container = { readonly kind: 'named'; readonly values: readonly NamedValue[] } | { readonly kind: 'value'; readonly value: ObjList | ObjMap | ObjInstance | EntityRef };

export class VariableStore {
  private readonly handles = new Handles<Container>();

  constructor(
    /** The world entities live in (null without one: a script has no entities), and the properties every entity has. */
    private readonly world: () => World | null,
    private readonly entityProperties: () => ReadonlySet<string>,
  ) {}

  /** Forget every handle: the program ran, the values may have changed. */
  reset(): void {
    this.handles.reset();
  }

  /** A handle to a scope's named values (locals, upvalues, globals). */
  scope(values: readonly NamedValue[]): number {
    return this.handles.create({ kind: 'named', values });
  }

  /**
   * The children of a handle, from `start` (at most `count`) when the editor
   * pages a big list. A list's elements are its indexed children, the rest's
   * are named: an editor that asks for one kind gets only that kind.
   */
  variables(reference: number, filter?: 'indexed' | 'named', start = 0, count = 0): DebugProtocol.Variable[] {
    const container = this.handles.get(reference);
    if (container === undefined) return [];
    const indexed = container.kind === 'value' && container.value instanceof ObjList;
    if ((filter === 'indexed' && !indexed) || (filter === 'named' && indexed)) return [];
    const all = this.children(container);
    const end = count > 0 ? start + count : start + MAX_CHILDREN;
    const shown = all.slice(start, end).map(({ name, value }) => this.variable(name, value));
    if (count === 0 && all.length > end) shown.push({ name: '…', value: `${all.length - end} more`, variablesReference: 0 });
    return shown;
  }

  /** One value as a variable: its text, its type, and a handle if it holds others. */
  variable(name: string, value: Value): DebugProtocol.Variable {
    const variable: DebugProtocol.Variable = { name, value: this.text(value), type: typeName(value), variablesReference: 0 };
    if (value instanceof ObjList) {
      variable.variablesReference = this.handles.create({ kind: 'value', value });
      variable.indexedVariables = value.items.length;
    } else if (value instanceof ObjMap) {
      variable.variablesReference = this.handles.create({ kind: 'value', value });
      variable.namedVariables = value.size;
    } else if (value instanceof ObjInstance || value instanceof EntityRef) {
      variable.variablesReference = this.handles.create({ kind: 'value', value });
    }
    return variable;
  }

  /** The line of text a value shows: as print shows it, strings quoted, cut to a readable length. */
  text(value: Value): string {
    if (typeof value === 'string') {
      const quoted = JSON.stringify(value.length > MAX_TEXT ? value.slice(0, MAX_TEXT) : value);
      return value.length > MAX_TEXT ? `${quoted.slice(0, -1)}…"` : quoted;
    }
    if (value instanceof EntityRef && !this.isAlive(value)) return `${value.display()} (gone)`;
    const text = displayBounded(value, MAX_TEXT * 4) ?? '…';
    return text.length > MAX_TEXT ? text.slice(0, MAX_TEXT - 1) + '…' : text;
  }

  private children(container: Container): readonly NamedValue[] {
    if (container.kind === 'named') return container.values;
    const value = container.value;
    if (value instanceof ObjList) return value.items.map((item, i) => ({ name: `[${i}]`, value: item }));
    if (value instanceof ObjMap) {
      const values = value.values();
      return value.keys().map((key, i) => ({ name: typeof key === 'string' ? JSON.stringify(key) : this.text(key), value: values[i] ?? null }));
    }
    if (value instanceof ObjInstance) return value.fieldNames().map((name) => ({ name, value: value.getField(name) ?? null }));
    return this.entityChildren(value);
  }

  /** An entity: its breed and id, whether it lives, then its built-in properties and its breed's and spells' fields. */
  private entityChildren(entity: EntityRef): NamedValue[] {
    const world = this.world();
    const alive = this.isAlive(entity);
    const head: NamedValue[] = [
      { name: 'breed', value: entity.breedName },
      { name: 'id', value: entity.id },
      { name: 'alive', value: alive },
    ];
    if (world === null || !alive) return head;
    const builtIn = [...this.entityProperties()]
      .filter((name) => !ENTITY_METHODS.has(name) && !head.some((h) => h.name === name))
      .map((name) => ({ name, value: world.property(entity.id, name) ?? null }));
    const fields = world.fields(entity.id).map((f) => ({ name: f.name, value: f.value }));
    return [...head, ...builtIn, ...fields];
  }

  private isAlive(entity: EntityRef): boolean {
    return this.world()?.isAlive(entity.id) ?? false;
  }
}

function typeName(value: Value): string {
  if (value === null) return 'nil';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value !== 'object') return typeof value;
  if (value instanceof EntityRef) return `entity (${value.breedName})`;
  if (value instanceof ObjInstance) return `instance of ${value.klass.name}`;
  return 'hostType' in value ? value.hostType : value.objectType;
}
