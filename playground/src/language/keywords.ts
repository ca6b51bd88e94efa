/**
 * The words of the language, with the one-line docs hover and completion show.
 * Lox's reserved words plus the two contextual spell keywords.
 */

import { KEYWORDS, type Keyword } from '../../../compiler/lexicon.js';
import { BUILTIN_METHODS as VM_METHODS } from '../../../vm/method-dispatch.js';
import type { HostFunctionSpec } from '../../../vm/host.js';

/** Every keyword, contextual ones included: the compiler's lexicon is the one list. */
export const ALL_KEYWORDS: readonly string[] = KEYWORDS;

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
  in: 'Used in `for (x in list)` to iterate over a list (or a map\'s keys).',
} satisfies Record<Keyword, string>;

/** Methods the VM provides on strings, lists and maps: one table in the VM (vm/method-dispatch.ts), read here. */
export const BUILTIN_METHODS: readonly { name: string; receiver: string; signature: string; doc: string }[] = (
  Object.entries(VM_METHODS) as [string, readonly HostFunctionSpec[]][]
).flatMap(([receiver, rows]) =>
  rows.map((m) => ({
    name: m.name,
    receiver,
    signature: `${receiver}.${m.name}(${m.params.map((p) => `${p.name}${p.optional ? '?' : ''}: ${p.type}`).join(', ')}) -> ${m.returns}`,
    doc: m.doc,
  })),
);
