/**
 * The language service: one analysed SpellDocument per open file, kept
 * until its text or the world (host API, breeds) changes, so diagnostics,
 * completion, hover and the rest of one version all read one compile. The
 * playground's Monaco providers, the LSP server (`cantrip lsp`) and
 * `cantrip check` sit on it.
 */
import { IncrementalParser } from '../incremental-parse.js';
import { parse } from '../parse.js';
import { AnalysisBudget } from './analysis-budget.js';
import { MAX_ANALYSED_SOURCE, SpellDocument } from './document.js';
import { flattenSymbols, matchesQuery, documentSymbols, type OutlineSymbol } from './outline.js';
import type { ServiceWorld } from './world.js';

/** What the service keeps of one file while the budget allows: its analysis and its incremental parser. */
interface FileAnalysis {
  readonly doc: SpellDocument;
  /** Per file: an edit parses again only the top-level statements it touched. */
  readonly parser: IncrementalParser;
}

export interface LanguageServiceOptions {
  /** Bounds the analyses kept (shared by the services of one editor); default: one of DEFAULT_ANALYSED_SOURCE_BUDGET for this service. */
  readonly budget?: AnalysisBudget;
}

export class LanguageService {
  private readonly files = new Map<string, FileAnalysis>();
  private readonly budget: AnalysisBudget;

  constructor(
    private currentWorld: ServiceWorld,
    options: LanguageServiceOptions = {},
  ) {
    this.budget = options.budget ?? new AnalysisBudget();
  }

  get world(): ServiceWorld {
    return this.currentWorld;
  }

  /** New host API or breeds: every document is analysed again when next asked for. */
  setWorld(world: ServiceWorld): void {
    this.currentWorld = world;
    this.forgetAll();
  }

  /** Drop every analysis (a service no longer used gives its share of the budget back). */
  forgetAll(): void {
    for (const file of this.files.values()) this.budget.forget(file);
    this.files.clear();
  }

  /** The analysis of `text` as the file `uri`; the same object while neither the text nor the world changes (and the budget kept it). */
  document(uri: string, text: string): SpellDocument {
    const source = typeof text === 'string' ? text : String(text);
    const cached = this.files.get(uri);
    let file: FileAnalysis;
    if (cached && cached.doc.source === source && cached.doc.world === this.currentWorld) file = cached;
    else {
      const parser = cached?.parser ?? new IncrementalParser();
      file = { doc: new SpellDocument(source, this.currentWorld, uri, parser), parser };
      if (cached) this.budget.forget(cached);
      this.files.set(uri, file);
    }
    // A file over the analysis cap is refused, not analysed: it costs the budget nothing.
    this.budget.use(file, source.length > MAX_ANALYSED_SOURCE ? 0 : source.length, () => {
      if (this.files.get(uri) === file) this.files.delete(uri);
    });
    return file.doc;
  }

  /** The last analysis of `uri`, if it is kept. */
  cached(uri: string): SpellDocument | undefined {
    return this.files.get(uri)?.doc;
  }

  forget(uri: string): void {
    const file = this.files.get(uri);
    if (file === undefined) return;
    this.budget.forget(file);
    this.files.delete(uri);
  }

  /** Symbols matching `query` across the analyses kept. */
  workspaceSymbols(query: string): { uri: string; symbol: OutlineSymbol; container: string }[] {
    const out: { uri: string; symbol: OutlineSymbol; container: string }[] = [];
    for (const [uri, { doc }] of this.files) {
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
