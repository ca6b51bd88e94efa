/**
 * Completion: what makes sense at the cursor. After `object.`, the members
 * of that kind of value (properties.ts); inside a string, breed names; in a
 * comment, nothing; elsewhere the names in scope (locals, captured
 * variables, the module's functions, classes and spells), the host functions
 * with their signatures, and the keywords.
 */
import type { SpellSymbol } from '../symbols.js';
import type { HostFunctionSpec } from '../../vm/host.js';
import { hostArity } from '../../vm/host.js';
import { cursorPlace, memberAccessAt } from './cursor.js';
import type { SpellDocument } from './document.js';
import { describeSymbol } from './describe.js';
import { membersOf } from './properties.js';
import { clampOffset } from './text.js';
import { kindBeforeDot, kindOfExpression, type ValueKind } from './value-kinds.js';
import { KEYWORD_DOCS, KEYWORDS } from './words.js';
import { hostSignature } from './world.js';

export type CompletionKind = 'keyword' | 'host' | 'breed' | 'property' | 'method' | 'spell' | 'variable' | 'parameter' | 'function' | 'class';

export interface CompletionEntry {
  readonly label: string;
  readonly kind: CompletionKind;
  /** Short text shown beside the label (a signature or a type). */
  readonly detail: string;
  /** Markdown. */
  readonly documentation: string;
  /** Snippet syntax (`${1:name}`, as Monaco and LSP read it) when `isSnippet`, plain text otherwise. */
  readonly insertText: string;
  readonly isSnippet: boolean;
  /** Lower sorts first: names in scope, then host functions, then keywords. */
  readonly rank: number;
}

export function completionsAt(doc: SpellDocument, rawOffset: number): CompletionEntry[] {
  const offset = clampOffset(rawOffset, doc.source);
  const place = cursorPlace(doc, offset);
  if (place === 'comment') return [];
  if (place === 'string') return breedEntries(doc);
  const member = memberAccessAt(doc, offset);
  if (member) return memberEntries(doc, receiverKind(doc, member.dot, member.nameStart));
  return [...scopeEntries(doc, offset), ...hostEntries(doc, offset), ...KEYWORDS.map(keywordEntry)];
}

/** The kind of the object before the dot: from the tree when it parsed, else from the tokens. */
export function receiverKind(doc: SpellDocument, dot: number, nameStart: number): ValueKind {
  const entry = doc.names.at(nameStart);
  const parsed = entry?.role === 'property' && entry.id.loc.start === nameStart && entry.object !== undefined && entry.object.loc.end <= dot;
  return parsed ? kindOfExpression(doc, entry.object!) : kindBeforeDot(doc, dot);
}

function memberEntries(doc: SpellDocument, kind: ValueKind): CompletionEntry[] {
  return membersOf(doc, kind).map((m) => ({ label: m.name, kind: m.kind, detail: m.detail, documentation: m.documentation, insertText: m.name, isSnippet: false, rank: 0 }));
}

function breedEntries(doc: SpellDocument): CompletionEntry[] {
  return doc.world.breeds.map((b) => ({
    label: b.name,
    kind: 'breed',
    detail: b.parent ? `breed (extends ${b.parent})` : 'breed',
    documentation: [`Breed **${b.name}**${b.parent ? ` (parent: ${b.parent})` : ''}`, '', ...Object.entries(b.fields).map(([k, v]) => `- \`${k}\`: ${JSON.stringify(v)}`)].join('\n'),
    insertText: b.name,
    isSnippet: false,
    rank: 0,
  }));
}

const SYMBOL_KINDS: Record<SpellSymbol['kind'], CompletionKind> = {
  variable: 'variable',
  'loop-variable': 'variable',
  parameter: 'parameter',
  function: 'function',
  spell: 'spell',
  class: 'class',
};

function scopeEntries(doc: SpellDocument, offset: number): CompletionEntry[] {
  const functions = doc.enclosing(offset).functions;
  const current = functions[functions.length - 1] ?? null;
  return doc.visibleSymbols(offset).map((s) => {
    const captured = !s.global && s.owner !== null && s.owner !== current;
    return {
      label: s.name,
      kind: SYMBOL_KINDS[s.kind],
      detail: captured ? `${describeSymbol(doc, s).kindText} (captured from ${s.owner!.name.name})` : describeSymbol(doc, s).kindText,
      documentation: '```cantrip\n' + describeSymbol(doc, s).code + '\n```',
      insertText: s.name,
      isSnippet: false,
      rank: 0,
    };
  });
}

function hostEntries(doc: SpellDocument, offset: number): CompletionEntry[] {
  const shadowed = new Set(doc.visibleSymbols(offset).map((s) => s.name));
  return doc.world.hosts.filter((h) => !shadowed.has(h.name)).map(hostEntry);
}

function hostEntry(spec: HostFunctionSpec): CompletionEntry {
  const required = spec.params.filter((p) => !p.optional);
  const placeholders = required.map((p, i) => `\${${i + 1}:${p.name}}`).join(', ');
  return { label: spec.name, kind: 'host', detail: hostSignature(spec), documentation: hostDocumentation(spec), insertText: `${spec.name}(${placeholders})`, isSnippet: true, rank: 1 };
}

/** The docs line, the arity, and each documented parameter. */
export function hostDocumentation(spec: HostFunctionSpec): string {
  const { min, max } = hostArity(spec);
  const arity = min === max ? `${min}` : `${min}–${max}`;
  const params = spec.params.filter((p) => p.doc).map((p) => `- \`${p.name}\`: ${p.doc}`);
  return [spec.doc, '', `Host function, ${arity} argument${max === 1 ? '' : 's'}.`, ...params].join('\n');
}

function keywordEntry(word: string): CompletionEntry {
  return { label: word, kind: 'keyword', detail: 'keyword', documentation: KEYWORD_DOCS[word] ?? '', insertText: word, isSnippet: false, rank: 2 };
}
