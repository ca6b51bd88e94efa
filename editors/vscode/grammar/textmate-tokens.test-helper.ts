/**
 * Tokenizing with a TextMate grammar as VS Code does (vscode-textmate on
 * the Oniguruma WASM build), for the grammar tests: each token with its
 * absolute offsets in the source and its scope stack.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as oniguruma from 'vscode-oniguruma';
import { INITIAL, parseRawGrammar, Registry, type IGrammar, type StateStack } from 'vscode-textmate';

export interface ScopedToken {
  readonly start: number;
  readonly end: number;
  readonly text: string;
  /** Outermost first, as vscode-textmate gives them. */
  readonly scopes: readonly string[];
}

let wasmLoaded: Promise<void> | null = null;

function loadOniguruma(): Promise<void> {
  const wasmPath = createRequire(import.meta.url).resolve('vscode-oniguruma/release/onig.wasm');
  wasmLoaded ??= oniguruma.loadWASM(readFileSync(wasmPath).buffer as ArrayBuffer);
  return wasmLoaded;
}

export async function loadGrammar(grammarJson: string, scopeName: string): Promise<IGrammar> {
  await loadOniguruma();
  const registry = new Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns: string[]) => new oniguruma.OnigScanner(patterns),
      createOnigString: (text: string) => new oniguruma.OnigString(text),
    }),
    loadGrammar: async (name: string) => (name === scopeName ? parseRawGrammar(grammarJson, 'grammar.json') : null),
  });
  const grammar = await registry.loadGrammar(scopeName);
  if (!grammar) throw new Error(`grammar ${scopeName} did not load`);
  return grammar;
}

/** Tokenizes line by line (lines end at '\n', as the lexer counts them), carrying the rule stack across lines. */
export function tokenizeSource(grammar: IGrammar, source: string): ScopedToken[] {
  const tokens: ScopedToken[] = [];
  let state: StateStack = INITIAL;
  let lineStart = 0;
  for (const line of source.split('\n')) {
    const result = grammar.tokenizeLine(line, state);
    for (const t of result.tokens) {
      const end = Math.min(t.endIndex, line.length);
      if (end > t.startIndex) tokens.push({ start: lineStart + t.startIndex, end: lineStart + end, text: line.slice(t.startIndex, end), scopes: t.scopes });
    }
    state = result.ruleStack;
    lineStart += line.length + 1;
  }
  return tokens;
}
