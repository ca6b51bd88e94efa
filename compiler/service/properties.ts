/**
 * What `.name` can mean on each kind of value: an entity's properties (the
 * built-in ones and the breeds' fields), a string's, list's or map's
 * methods, a class's methods and the fields its methods set. Completion
 * lists these; hover explains one.
 */
import type * as A from '../ast.js';
import { walk } from '../ast-walk.js';
import type { SpellDocument } from './document.js';
import type { ValueKind } from './value-kinds.js';
import { methodsOf, type BuiltinMethodDoc } from './words.js';
import type { ServiceWorld } from './world.js';

export type MemberKind = 'property' | 'method';

export interface Member {
  readonly name: string;
  readonly kind: MemberKind;
  /** Short text beside the name: a signature or where it comes from. */
  readonly detail: string;
  /** Markdown. */
  readonly documentation: string;
}

/** The breeds that define a field, with their values: `Troll = 2`. */
export function breedsDefining(world: ServiceWorld, field: string): { breed: string; value: unknown }[] {
  return world.breeds.filter((b) => Object.hasOwn(b.fields, field)).map((b) => ({ breed: b.name, value: b.fields[field] }));
}

/** An entity property: its docs, or the breeds that define it and their values. */
export function entityMember(world: ServiceWorld, name: string): Member | null {
  const builtin = world.entityProperties.find((p) => p.name === name);
  const breeds = breedsDefining(world, name);
  if (!builtin && breeds.length === 0) return null;
  const parts: string[] = builtin ? [builtin.doc] : [];
  if (breeds.length > 0) parts.push(['Defined by breeds:', ...breeds.map((b) => `- ${b.breed} = \`${JSON.stringify(b.value)}\``)].join('\n'));
  const types = [...new Set(breeds.map((b) => typeof b.value))];
  const detail = builtin ? 'entity property' : `breed field (${types.join(' | ')})`;
  return { name, kind: 'property', detail, documentation: parts.join('\n\n') };
}

export function entityMembers(world: ServiceWorld): Member[] {
  const names = new Set(world.entityProperties.map((p) => p.name));
  for (const b of world.breeds) for (const [field, value] of Object.entries(b.fields)) if (typeof value !== 'object' || value === null) names.add(field);
  return [...names].map((n) => entityMember(world, n)!).filter((m) => m !== null);
}

function methodMember(rows: readonly BuiltinMethodDoc[]): Member {
  return {
    name: rows[0]!.name,
    kind: 'method',
    detail: rows.map((m) => m.signature).join(' | '),
    documentation: rows.map((m) => `\`${m.receiver}\`: ${m.doc}`).join('\n\n'),
  };
}

/** The methods of a string, list or map. */
export function builtinMembers(receiver: 'string' | 'list' | 'map'): Member[] {
  return methodsOf(receiver).map((m) => methodMember([m]));
}

/** A class's methods (inherited ones too) and the fields its methods set on `this`. */
export function classMembers(doc: SpellDocument, classNode: A.ClassStmt): Member[] {
  const members = new Map<string, Member>();
  for (let c: A.ClassStmt | null = classNode, hops = 0; c !== null && hops < 32; c = superclassOf(doc, c), hops++) {
    for (const m of c.methods) {
      if (m.name.name === '' || members.has(m.name.name) || m.functionKind === 'initializer') continue;
      members.set(m.name.name, { name: m.name.name, kind: 'method', detail: `${c.name.name}.${m.name.name}(${m.params.map((p) => p.name).join(', ')})`, documentation: '' });
    }
    walk(c.methods, {
      expr(e) {
        if (e.kind === 'Set' && e.object.kind === 'This' && e.name.name !== '' && !members.has(e.name.name)) {
          members.set(e.name.name, { name: e.name.name, kind: 'property', detail: `field of ${c!.name.name}`, documentation: '' });
        }
      },
    });
  }
  return [...members.values()];
}

function superclassOf(doc: SpellDocument, c: A.ClassStmt): A.ClassStmt | null {
  if (c.superclass === null) return null;
  const symbol = doc.compiled.resolution?.symbols.uses.get(c.superclass.name);
  return symbol?.node.kind === 'Class' ? symbol.node : null;
}

/** What may follow `.` on a value of this kind. Unknown values get entity properties, fields set in the file and class methods — never string, list or map methods. */
export function membersOf(doc: SpellDocument, kind: ValueKind): Member[] {
  switch (kind.type) {
    case 'entity':
      return withSetProperties(doc, entityMembers(doc.world));
    case 'string':
    case 'list':
    case 'map':
      return builtinMembers(kind.type);
    case 'instance':
      return classMembers(doc, kind.classNode);
    case 'unknown': {
      const classes = doc.symbols.filter((s) => s.kind === 'class' && s.node.kind === 'Class').flatMap((s) => classMembers(doc, s.node as A.ClassStmt));
      return dedupe([...withSetProperties(doc, entityMembers(doc.world)), ...classes]);
    }
    default:
      return [];
  }
}

function withSetProperties(doc: SpellDocument, members: Member[]): Member[] {
  const set = [...doc.propertiesSet()].map((name): Member => ({ name, kind: 'property', detail: 'set in this file', documentation: '' }));
  return dedupe([...members, ...set]);
}

function dedupe(members: Member[]): Member[] {
  const seen = new Set<string>();
  return members.filter((m) => !seen.has(m.name) && seen.add(m.name) !== undefined);
}

/** The one member `name` on a value of this kind, for hover. */
export function memberNamed(doc: SpellDocument, kind: ValueKind, name: string): Member | null {
  return membersOf(doc, kind).find((m) => m.name === name) ?? null;
}
