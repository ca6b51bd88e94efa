/**
 * Completion and hover for the editor, computed from plain data: the host API
 * table, the breeds, the entity properties and the source text. No Monaco here;
 * the editor module converts these entries into Monaco's types.
 */
import type { HostFunctionSpec } from '../../../vm/host.js';
import { hostArity } from '../../../vm/host.js';
import { ALL_KEYWORDS, BUILTIN_METHODS, KEYWORD_DOCS } from './keywords.js';

export type CompletionKind = 'keyword' | 'host' | 'breed' | 'property' | 'method' | 'spell' | 'variable' | 'function' | 'class';

export interface CompletionEntry {
  readonly label: string;
  readonly kind: CompletionKind;
  /** Short text shown beside the label (a signature or a type). */
  readonly detail: string;
  /** Markdown. */
  readonly documentation: string;
  /** Monaco snippet syntax when `isSnippet`, plain text otherwise. */
  readonly insertText: string;
  readonly isSnippet: boolean;
}

export interface PropertyDoc {
  readonly name: string;
  readonly doc: string;
}

export interface BreedSummary {
  readonly name: string;
  readonly parent: string | null;
  /** Fields after inheritance, as plain JSON values. */
  readonly fields: Readonly<Record<string, unknown>>;
}

export interface LanguageContext {
  readonly hosts: readonly HostFunctionSpec[];
  readonly breeds: readonly BreedSummary[];
  readonly entityProperties: readonly PropertyDoc[];
}

export interface HoverResult {
  readonly contents: readonly string[];
  /** 0-based offsets of the hovered word. */
  readonly start: number;
  readonly end: number;
}

/** `damage(target: entity, amount: number) -> nil`, with `?` on optional params. */
export function hostSignature(spec: HostFunctionSpec): string {
  const params = spec.params.map((p) => `${p.name}${p.optional ? '?' : ''}: ${p.type}`).join(', ');
  return `${spec.name}(${params}) -> ${spec.returns}`;
}

function hostDocumentation(spec: HostFunctionSpec): string {
  const { min, max } = hostArity(spec);
  const arity = min === max ? `${min}` : `${min}–${max}`;
  const params = spec.params.filter((p) => p.doc).map((p) => `- \`${p.name}\`: ${p.doc}`);
  return [spec.doc, '', `Host function, ${arity} argument${max === 1 ? '' : 's'}.`, ...params].join('\n');
}

function hostEntry(spec: HostFunctionSpec): CompletionEntry {
  const required = spec.params.filter((p) => !p.optional);
  const placeholders = required.map((p, i) => `\${${i + 1}:${p.name}}`).join(', ');
  return {
    label: spec.name,
    kind: 'host',
    detail: hostSignature(spec),
    documentation: hostDocumentation(spec),
    insertText: `${spec.name}(${placeholders})`,
    isSnippet: true,
  };
}

function keywordEntry(word: string): CompletionEntry {
  return { label: word, kind: 'keyword', detail: 'keyword', documentation: KEYWORD_DOCS[word] ?? '', insertText: word, isSnippet: false };
}

const DECLARATION = /\b(var|fun|class|spell)\s+([A-Za-z_]\w*)/g;
const PARAMETER_LIST = /\b(?:fun|spell)\s+[A-Za-z_]\w*\s*\(([^)]*)\)/g;
const FOR_IN = /\bfor\s*\(\s*([A-Za-z_]\w*)\s+in\b/g;

/** Names the source declares, by kind (a textual scan: it must work on code that does not parse). */
export function declaredNames(source: string): Map<string, CompletionKind> {
  const names = new Map<string, CompletionKind>();
  const kinds: Record<string, CompletionKind> = { var: 'variable', fun: 'function', class: 'class', spell: 'spell' };
  for (const m of source.matchAll(DECLARATION)) names.set(m[2]!, kinds[m[1]!]!);
  for (const m of source.matchAll(PARAMETER_LIST)) {
    for (const p of m[1]!.split(',')) {
      const name = p.trim();
      if (/^[A-Za-z_]\w*$/.test(name) && !names.has(name)) names.set(name, 'variable');
    }
  }
  for (const m of source.matchAll(FOR_IN)) if (!names.has(m[1]!)) names.set(m[1]!, 'variable');
  for (const k of ALL_KEYWORDS) names.delete(k);
  return names;
}

/** The spells the source declares, in order (textual, so the list survives a syntax error elsewhere). */
export function declaredSpells(source: string): string[] {
  const spells: string[] = [];
  for (const m of stripComments(source).matchAll(/(?:^|[;}\s])spell\s+([A-Za-z_]\w*)\s*\(/g)) {
    if (!spells.includes(m[1]!)) spells.push(m[1]!);
  }
  return spells;
}

function stripComments(source: string): string {
  return source.replace(/\/\/[^\n]*/g, (c) => ' '.repeat(c.length));
}

/** True when the cursor follows `something.` (member access), possibly with a partial name typed. */
export function isMemberAccess(source: string, offset: number): boolean {
  return /\.\s*[A-Za-z_]?\w*$/.test(source.slice(Math.max(0, offset - 200), offset));
}

/** Properties an entity has: the runtime's own plus every field any breed declares. */
export function entityPropertyEntries(ctx: LanguageContext): CompletionEntry[] {
  const entries = new Map<string, CompletionEntry>();
  for (const p of ctx.entityProperties) {
    entries.set(p.name, { label: p.name, kind: 'property', detail: 'entity property', documentation: p.doc, insertText: p.name, isSnippet: false });
  }
  for (const breed of ctx.breeds) {
    for (const [field, value] of Object.entries(breed.fields)) {
      if (entries.has(field) || typeof value === 'object') continue;
      entries.set(field, {
        label: field,
        kind: 'property',
        detail: `breed field (${typeof value})`,
        documentation: `Declared by breeds: ${breedsWithField(ctx, field).join(', ')}.`,
        insertText: field,
        isSnippet: false,
      });
    }
  }
  return [...entries.values()];
}

function breedsWithField(ctx: LanguageContext, field: string): string[] {
  return ctx.breeds.filter((b) => field in b.fields).map((b) => `${b.name} = ${JSON.stringify(b.fields[field])}`);
}

/** String, list and map methods; a name several receivers share (`slice`, `contains`) is one entry listing each signature. */
function builtinMethodEntries(): CompletionEntry[] {
  const byName = new Map<string, (typeof BUILTIN_METHODS)[number][]>();
  for (const m of BUILTIN_METHODS) byName.set(m.name, [...(byName.get(m.name) ?? []), m]);
  return [...byName.entries()].map(([name, rows]) => ({
    label: name,
    kind: 'method',
    detail: rows.map((m) => m.signature).join(' | '),
    documentation: rows.map((m) => `\`${m.receiver}\`: ${m.doc}`).join('\n\n'),
    insertText: name,
    isSnippet: false,
  }));
}

function breedEntries(ctx: LanguageContext): CompletionEntry[] {
  return ctx.breeds.map((b) => ({
    label: b.name,
    kind: 'breed',
    detail: b.parent ? `breed (extends ${b.parent})` : 'breed',
    documentation: breedDocumentation(b),
    insertText: JSON.stringify(b.name),
    isSnippet: false,
  }));
}

function breedDocumentation(b: BreedSummary): string {
  const fields = Object.entries(b.fields).map(([k, v]) => `- \`${k}\`: ${JSON.stringify(v)}`);
  return [`Breed **${b.name}**${b.parent ? ` (parent: ${b.parent})` : ''}`, '', ...fields].join('\n');
}

/** Everything that makes sense at `offset` in `source`. */
export function completionsAt(source: string, offset: number, ctx: LanguageContext): CompletionEntry[] {
  if (isInsideStringOrComment(source, offset)) return isInsideString(source, offset) ? breedEntries(ctx) : [];
  if (isMemberAccess(source, offset)) return [...entityPropertyEntries(ctx), ...builtinMethodEntries()];
  const hostNames = new Set(ctx.hosts.map((h) => h.name));
  const locals: CompletionEntry[] = [...declaredNames(source)]
    .filter(([name]) => !hostNames.has(name))
    .map(([name, kind]) => ({ label: name, kind, detail: kind, documentation: '', insertText: name, isSnippet: false }));
  return [...ALL_KEYWORDS.map(keywordEntry), ...ctx.hosts.map(hostEntry), ...locals];
}

/**
 * Scan from the start so `//` inside a string and `"` inside a comment are
 * handled. Template text counts as a string and its `${ … }` as code: a stack
 * holds, per open substitution, the braces opened inside it.
 */
function lexicalStateAt(source: string, offset: number): 'code' | 'string' | 'comment' {
  let state: 'code' | 'string' | 'template' | 'comment' = 'code';
  const substitutions: number[] = [];
  for (let i = 0; i < offset && i < source.length; i++) {
    const c = source[i];
    if (state === 'code') {
      if (c === '"') state = 'string';
      else if (c === '`') state = 'template';
      else if (c === '/' && source[i + 1] === '/') state = 'comment';
      else if (substitutions.length > 0 && c === '{') substitutions[substitutions.length - 1]!++;
      else if (substitutions.length > 0 && c === '}') {
        if (substitutions[substitutions.length - 1] === 0) {
          substitutions.pop();
          state = 'template';
        } else substitutions[substitutions.length - 1]!--;
      }
    } else if (state === 'string') {
      if (c === '"') state = 'code';
    } else if (state === 'template') {
      if (c === '`') state = 'code';
      else if (c === '$' && source[i + 1] === '{') {
        substitutions.push(0);
        state = 'code';
        i++;
      }
    } else if (c === '\n') state = 'code';
  }
  return state === 'template' ? 'string' : state;
}

function isInsideStringOrComment(source: string, offset: number): boolean {
  return lexicalStateAt(source, offset) !== 'code';
}

function isInsideString(source: string, offset: number): boolean {
  return lexicalStateAt(source, offset) === 'string';
}

/** The identifier around `offset`, as [start, end) offsets. */
export function wordAt(source: string, offset: number): { word: string; start: number; end: number } | null {
  let start = offset;
  let end = offset;
  while (start > 0 && /\w/.test(source[start - 1]!)) start--;
  while (end < source.length && /\w/.test(source[end]!)) end++;
  if (start === end || !/^[A-Za-z_]/.test(source.slice(start, end))) return null;
  return { word: source.slice(start, end), start, end };
}

/** Hover docs for the word at `offset`: keywords, host functions, entity properties, breeds. */
export function hoverAt(source: string, offset: number, ctx: LanguageContext): HoverResult | null {
  if (isInsideStringOrComment(source, offset) && !isInsideString(source, offset)) return null;
  const w = wordAt(source, offset);
  if (!w) return null;
  const contents = hoverContents(source, w.start, w.word, ctx);
  return contents ? { contents, start: w.start, end: w.end } : null;
}

function hoverContents(source: string, start: number, word: string, ctx: LanguageContext): string[] | null {
  if (isInsideString(source, start)) {
    const breed = ctx.breeds.find((b) => b.name === word);
    return breed ? [breedDocumentation(breed)] : null;
  }
  const afterDot = start > 0 && /\.\s*$/.test(source.slice(Math.max(0, start - 20), start));
  if (afterDot) {
    const entry = [...entityPropertyEntries(ctx), ...builtinMethodEntries()].find((e) => e.label === word);
    return entry ? ['```\n' + `.${word}: ${entry.detail}` + '\n```', entry.documentation] : null;
  }
  const host = ctx.hosts.find((h) => h.name === word);
  if (host) return ['```cantrip\n' + hostSignature(host) + '\n```', hostDocumentation(host)];
  if (KEYWORD_DOCS[word] !== undefined && ALL_KEYWORDS.includes(word)) return [`**${word}** (keyword)`, KEYWORD_DOCS[word]!];
  const declared = declaredNames(source).get(word);
  return declared ? [`\`${word}\`: ${declared}`] : null;
}
