/**
 * The language's own words with the one-line docs hover and completion
 * show: the reserved words (compiler/lexicon.ts lists them) and the methods
 * the VM gives strings, lists and maps (one table, vm/method-dispatch.ts).
 */
import { BUILTIN_METHODS as VM_METHODS } from '../../vm/method-dispatch.js';
import type { HostFunctionSpec } from '../../vm/host.js';
import type { ValueType } from '../../vm/value.js';
import { KEYWORDS as LEXICON_KEYWORDS, type Keyword } from '../lexicon.js';

/** Every keyword (the lexicon's list), as plain strings for lookups. */
export const KEYWORDS: readonly string[] = LEXICON_KEYWORDS;

export const KEYWORD_DOCS: Readonly<Record<string, string>> = {
  and: 'Logical and: evaluates the right operand only when the left is truthy; returns one of the operands.',
  class: 'Declares a class: `class Name < Super { method() { … } }`.',
  else: 'The branch taken when the `if` condition is falsey.',
  false: 'The boolean false (falsey).',
  for: 'C-style loop `for (init; cond; step)` or list loop `for (x in list)`.',
  fun: 'Declares a function: `fun name(a, b) { … }`.',
  if: 'Conditional: `if (cond) stmt else stmt`.',
  nil: 'The absence of a value (falsey).',
  or: 'Logical or: evaluates the right operand only when the left is falsey; returns one of the operands.',
  print: 'Prints a value followed by a newline: `print expr;`.',
  return: 'Returns from the current function or spell.',
  super: 'Refers to the superclass method: `super.name(…)`.',
  this: 'The instance a method was called on.',
  true: 'The boolean true.',
  var: 'Declares a variable: `var name = value;` (nil when uninitialised).',
  while: 'Loop while a condition is truthy: `while (cond) stmt`.',
  spell: 'Declares a named entry point the host can cast: `spell fireball(caster, target) { … }`.',
  in: "Used in `for (x in list)` to iterate over a list (or a map's keys).",
} satisfies Record<Keyword, string>;

export type MethodReceiver = 'string' | 'list' | 'map';

export interface BuiltinMethodDoc {
  readonly name: string;
  readonly receiver: MethodReceiver;
  /** `list.push(value: any) -> nil` */
  readonly signature: string;
  readonly parameters: readonly string[];
  readonly returns: ValueType;
  readonly doc: string;
}

/** Methods the VM provides on strings, lists and maps. */
export const BUILTIN_METHODS: readonly BuiltinMethodDoc[] = (Object.entries(VM_METHODS) as [MethodReceiver, readonly HostFunctionSpec[]][]).flatMap(
  ([receiver, rows]) =>
    rows.map((m) => {
      const parameters = m.params.map((p) => `${p.name}${p.optional ? '?' : ''}: ${p.type}`);
      return { name: m.name, receiver, signature: `${receiver}.${m.name}(${parameters.join(', ')}) -> ${m.returns}`, parameters, returns: m.returns, doc: m.doc };
    }),
);

export function methodsOf(receiver: MethodReceiver): BuiltinMethodDoc[] {
  return BUILTIN_METHODS.filter((m) => m.receiver === receiver);
}
