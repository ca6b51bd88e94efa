/**
 * Go to definition, find references and rename, on the symbols the
 * resolver bound every name to: `x` inside a closure finds the `var x` it
 * captured, not another `x` in another function.
 */
import type { SpellSymbol } from '../symbols.js';
import type { SpellDocument } from './document.js';
import type { NameEntry } from './name-index.js';
import { clampOffset, wordAt, type TextRange } from './text.js';
import { KEYWORDS } from './words.js';

/** Where the name at `offset` is declared (a global may be declared more than once); [] when nothing here is declared in the file. */
export function definitionAt(doc: SpellDocument, offset: number): TextRange[] {
  const entry = doc.names.at(clampOffset(offset, doc.source));
  if (!entry) return [];
  if (entry.symbol) return entry.symbol.declarations.map((id) => ({ start: id.loc.start, end: id.loc.end }));
  if (entry.role === 'property' || entry.role === 'super-method') {
    // A method call: the methods of that name in the file's classes.
    return doc.names.entries.filter((e) => e.role === 'method' && e.id.name === entry.id.name).map((e) => ({ start: e.id.loc.start, end: e.id.loc.end }));
  }
  return [];
}

/** Every use of the symbol at `offset` (its declarations too when asked). */
export function referencesAt(doc: SpellDocument, offset: number, includeDeclaration = true): TextRange[] {
  const entry = doc.names.at(clampOffset(offset, doc.source));
  if (!entry?.symbol) return [];
  return doc.names
    .uses(entry.symbol)
    .filter((e) => includeDeclaration || !e.declaration)
    .map((e) => ({ start: e.id.loc.start, end: e.id.loc.end }));
}

export type RenameTarget = { readonly ok: true; readonly start: number; readonly end: number; readonly placeholder: string } | { readonly ok: false; readonly message: string };

/** Can the name at `offset` be renamed? Only what the file declares: variables, parameters, functions, classes and spells. */
export function prepareRenameAt(doc: SpellDocument, rawOffset: number): RenameTarget {
  const offset = clampOffset(rawOffset, doc.source);
  const entry = doc.names.at(offset);
  if (entry?.symbol) return { ok: true, start: entry.id.loc.start, end: entry.id.loc.end, placeholder: entry.id.name };
  return { ok: false, message: whyNot(doc, entry, offset) };
}

function whyNot(doc: SpellDocument, entry: NameEntry | null, offset: number): string {
  if (entry?.host) return `'${entry.id.name}' is a host function: the game's API defines it, so it cannot be renamed here.`;
  if (entry?.role === 'property' || entry?.role === 'method' || entry?.role === 'super-method') return `'${entry.id.name}' is a property or method; only variables, functions, classes and spells can be renamed.`;
  if (entry) return `'${entry.id.name}' is not declared in this file.`;
  const word = wordAt(doc.source, offset);
  if (word && KEYWORDS.includes(word.word)) return `'${word.word}' is a keyword and cannot be renamed.`;
  if (word && doc.world.hosts.some((h) => h.name === word.word)) return `'${word.word}' is a host function: the game's API defines it, so it cannot be renamed here.`;
  return 'There is no name to rename here.';
}

export interface TextEdit {
  readonly start: number;
  readonly end: number;
  readonly newText: string;
}

export type RenameResult = { readonly ok: true; readonly edits: readonly TextEdit[] } | { readonly ok: false; readonly message: string };

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The edits that rename the symbol at `offset` everywhere it is named. */
export function renameAt(doc: SpellDocument, offset: number, newName: string): RenameResult {
  const target = prepareRenameAt(doc, offset);
  if (!target.ok) return target;
  if (!IDENTIFIER.test(newName)) return { ok: false, message: `'${newName}' is not a valid name (letters, digits and '_', not starting with a digit).` };
  if (KEYWORDS.includes(newName)) return { ok: false, message: `'${newName}' is a keyword.` };
  const symbol = doc.names.at(target.start)!.symbol!;
  const clash = clashingName(doc, symbol, newName);
  if (clash !== null) return { ok: false, message: clash };
  const edits = doc.names.uses(symbol).map((e) => ({ start: e.id.loc.start, end: e.id.loc.end, newText: newName }));
  return { ok: true, edits };
}

/**
 * A rename that would change what a name means: the new name is already
 * visible where the symbol is used, it would capture another symbol's uses
 * or collide with a declaration in the same scope, or it is a host function.
 */
function clashingName(doc: SpellDocument, symbol: SpellSymbol, newName: string): string | null {
  if (newName === symbol.name) return null;
  if (doc.world.hosts.some((h) => h.name === newName)) return `'${newName}' is a host function; renaming to it would hide the host function.`;
  for (const use of doc.names.uses(symbol)) {
    const other = doc.symbolNamed(newName, use.id.loc.start);
    if (other && other !== symbol) return `'${newName}' is already declared where '${symbol.name}' is used (line ${use.id.loc.line}).`;
  }
  if (symbol.global) return null;
  const inScope = (offset: number) => symbol.scopeStart <= offset && offset <= symbol.scopeEnd;
  for (const other of doc.symbols) {
    if (other === symbol || other.name !== newName) continue;
    const use = doc.names.uses(other).find((e) => inScope(e.id.loc.start));
    if (use) return `'${newName}' is already used where '${symbol.name}' is in scope (line ${use.id.loc.line}).`;
  }
  return null;
}
