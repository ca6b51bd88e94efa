/**
 * The language service: one analysed SpellDocument per open file, kept
 * until its text or the world (host API, breeds) changes, so diagnostics,
 * completion, hover and the rest of one version all read one compile. The
 * playground's Monaco providers, the LSP server (`cantrip lsp`) and
 * `cantrip check` sit on it.
 */
import { IncrementalParser } from '../incremental-parse.js';
import { parse } from '../parse.js';
import { SpellDocument } from './document.js';
import { flattenSymbols, matchesQuery, documentSymbols, type OutlineSymbol } from './outline.js';
import type { ServiceWorld } from './world.js';

export class LanguageService {
  private readonly documents = new Map<string, SpellDocument>();
  /** Per file: an edit parses again only the top-level statements it touched. */
  private readonly parsers = new Map<string, IncrementalParser>();

  constructor(private currentWorld: ServiceWorld) {}

  get world(): ServiceWorld {
    return this.currentWorld;
  }

  /** New host API or breeds: every document is analysed again when next asked for. */
  setWorld(world: ServiceWorld): void {
    this.currentWorld = world;
    this.documents.clear();
  }

  /** The analysis of `text` as the file `uri`; the same object while neither the text nor the world changes. */
  document(uri: string, text: string): SpellDocument {
    const cached = this.documents.get(uri);
    if (cached && cached.source === text && cached.world === this.currentWorld) return cached;
    let parser = this.parsers.get(uri);
    if (parser === undefined) this.parsers.set(uri, (parser = new IncrementalParser()));
    const doc = new SpellDocument(typeof text === 'string' ? text : String(text), this.currentWorld, uri, parser);
    this.documents.set(uri, doc);
    return doc;
  }

  /** The last analysis of `uri`, if any. */
  cached(uri: string): SpellDocument | undefined {
    return this.documents.get(uri);
  }

  forget(uri: string): void {
    this.documents.delete(uri);
    this.parsers.delete(uri);
  }

  /** Symbols matching `query` across every analysed document. */
  workspaceSymbols(query: string): { uri: string; symbol: OutlineSymbol; container: string }[] {
    const out: { uri: string; symbol: OutlineSymbol; container: string }[] = [];
    for (const [uri, doc] of this.documents) {
      for (const found of flattenSymbols(documentSymbols(doc))) if (matchesQuery(found.symbol.name, query)) out.push({ uri, ...found });
    }
    return out;
  }
}

/** The spells a source declares at the top level, in order (a parse only, so it works beside errors elsewhere). */
export function declaredSpells(source: string): string[] {
  const names: string[] = [];
  for (const s of parse(source).ast.body) {
    if (s.kind === 'Function' && s.functionKind === 'spell' && s.name.name !== '' && !names.includes(s.name.name)) names.push(s.name.name);
  }
  return names;
}
