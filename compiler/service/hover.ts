/**
 * Hover: a host function's signature and docs, a property's docs (for an
 * entity, the breeds that define it and their values), a declared name's
 * declaration, a keyword's meaning, a breed named in a string.
 */
import { cursorPlace, memberAccessAt } from './cursor.js';
import { describeSymbol, functionHeader } from './describe.js';
import type { SpellDocument } from './document.js';
import { hostDocumentation, receiverKind } from './completion.js';
import type { NameEntry } from './name-index.js';
import { memberNamed } from './properties.js';
import { clampOffset, wordAt } from './text.js';
import { kindOfExpression, kindOfSymbol } from './value-kinds.js';
import { KEYWORD_DOCS, KEYWORDS } from './words.js';
import { hostSignature } from './world.js';

export interface HoverInfo {
  /** Markdown paragraphs. */
  readonly contents: readonly string[];
  /** The hovered word, as offsets. */
  readonly start: number;
  readonly end: number;
}

const code = (text: string) => '```cantrip\n' + text + '\n```';

export function hoverAt(doc: SpellDocument, rawOffset: number): HoverInfo | null {
  const offset = clampOffset(rawOffset, doc.source);
  const place = cursorPlace(doc, offset);
  if (place === 'comment') return null;
  const word = wordAt(doc.source, offset);
  if (word === null) return null;
  const at = (contents: string[] | null) => (contents === null ? null : { contents, start: word.start, end: word.end });
  if (place === 'string') {
    const breed = doc.world.breeds.find((b) => b.name === word.word);
    return at(breed ? [`Breed **${breed.name}**${breed.parent ? ` (parent: ${breed.parent})` : ''}`, Object.entries(breed.fields).map(([k, v]) => `- \`${k}\`: ${JSON.stringify(v)}`).join('\n')] : null);
  }
  const entry = doc.names.at(offset);
  if (entry && entry.id.loc.start === word.start) return at(entryHover(doc, entry));
  if (KEYWORDS.includes(word.word) && memberAccessAt(doc, offset) === null) return at([`**${word.word}** (keyword)`, KEYWORD_DOCS[word.word] ?? '']);
  return at(fallbackHover(doc, word.word, word.start, offset));
}

function entryHover(doc: SpellDocument, entry: NameEntry): string[] | null {
  switch (entry.role) {
    case 'name': {
      if (entry.host) return [code(hostSignature(entry.host)), hostDocumentation(entry.host)];
      if (!entry.symbol) return null;
      const d = describeSymbol(doc, entry.symbol);
      const kind = kindOfSymbol(doc, entry.symbol).type;
      const note = kind === 'entity' ? ' — an entity: the spell is cast with it' : kind !== 'unknown' && kind !== 'function' ? ` — ${kind}` : '';
      return [code(d.code), `(${d.kindText})${note}`];
    }
    case 'property': {
      const member = memberNamed(doc, kindOfExpression(doc, entry.object!), entry.id.name);
      return member ? [code(`.${member.name}: ${member.detail}`), member.documentation].filter((s) => s !== '') : null;
    }
    case 'method': {
      const method = entry.classNode?.methods.find((m) => m.name === entry.id);
      return method ? [code(`${entry.classNode!.name.name}.${functionHeader(method)}`), '(method)'] : null;
    }
    default:
      return null;
  }
}

/** Code that does not parse yet: a host function or a member, read from the text. */
function fallbackHover(doc: SpellDocument, word: string, start: number, offset: number): string[] | null {
  const member = memberAccessAt(doc, offset);
  if (member) {
    const found = memberNamed(doc, receiverKind(doc, member.dot, start), word);
    return found ? [code(`.${found.name}: ${found.detail}`), found.documentation].filter((s) => s !== '') : null;
  }
  if (doc.symbolNamed(word, offset)) return null;
  const host = doc.world.hosts.find((h) => h.name === word);
  return host ? [code(hostSignature(host)), hostDocumentation(host)] : null;
}
