/**
 * Registers Cantrip with Monaco: Monarch highlighting, the dark theme, and
 * completion / hover providers that delegate to the plain language-service
 * modules in ../language.
 */
import type { CompletionKind, LanguageContext } from '../language/completions.js';
import { completionsAt, hoverAt } from '../language/completions.js';
import { LANGUAGE_ID, cantripMonarch } from '../language/monarch.js';
import type { MarkerData } from '../language/markers.js';
import { monaco } from './monaco.js';

export const THEME_ID = 'cantrip-dark';

function completionKind(kind: CompletionKind): monaco.languages.CompletionItemKind {
  const K = monaco.languages.CompletionItemKind;
  const table: Record<CompletionKind, monaco.languages.CompletionItemKind> = {
    keyword: K.Keyword, host: K.Function, breed: K.EnumMember, property: K.Property, method: K.Method,
    spell: K.Event, variable: K.Variable, function: K.Function, class: K.Class,
  };
  return table[kind];
}

function defineTheme(): void {
  monaco.editor.defineTheme(THEME_ID, {
    base: 'vs-dark',
    inherit: true,
    rules: [
      { token: 'keyword', foreground: 'bb9af7' },
      { token: 'keyword.spell', foreground: 'f0a35e', fontStyle: 'bold' },
      { token: 'predefined', foreground: '7dcfff' },
      { token: 'number', foreground: 'ff9e64' },
      { token: 'string', foreground: '9ece6a' },
      { token: 'string.quote', foreground: '9ece6a' },
      { token: 'comment', foreground: '5f6a85', fontStyle: 'italic' },
      { token: 'operator', foreground: '89ddff' },
      { token: 'identifier', foreground: 'd6d9e0' },
      { token: 'json.key', foreground: '7aa2f7' },
    ],
    colors: {
      'editor.background': '#1b1e26',
      'editor.lineHighlightBackground': '#222632',
      'editorLineNumber.foreground': '#4b5263',
      'editorGutter.background': '#1b1e26',
    },
  });
}

/** A minimal JSON colouring for the breeds tab (Monaco's JSON language service is not bundled). */
function registerBreedsJson(): void {
  monaco.languages.register({ id: 'breeds-json' });
  monaco.languages.setMonarchTokensProvider('breeds-json', {
    tokenizer: {
      root: [
        [/"(?:[^"\\]|\\.)*"(?=\s*:)/, 'json.key'],
        [/"(?:[^"\\]|\\.)*"/, 'string'],
        [/-?\d+(\.\d+)?([eE][+-]?\d+)?/, 'number'],
        [/\b(true|false|null)\b/, 'keyword'],
      ],
    },
  });
}

/** Registers everything once; `context()` is read on each request so breeds and hosts stay current. */
export function registerCantrip(hostNames: readonly string[], context: () => LanguageContext): void {
  defineTheme();
  registerBreedsJson();
  monaco.languages.register({ id: LANGUAGE_ID, extensions: ['.spell'], aliases: ['Cantrip'] });
  monaco.languages.setMonarchTokensProvider(LANGUAGE_ID, cantripMonarch(hostNames) as unknown as monaco.languages.IMonarchLanguage);
  monaco.languages.setLanguageConfiguration(LANGUAGE_ID, {
    comments: { lineComment: '//' },
    brackets: [['{', '}'], ['[', ']'], ['(', ')']],
    autoClosingPairs: [
      { open: '{', close: '}' }, { open: '[', close: ']' }, { open: '(', close: ')' }, { open: '"', close: '"', notIn: ['string'] },
    ],
    surroundingPairs: [{ open: '{', close: '}' }, { open: '[', close: ']' }, { open: '(', close: ')' }, { open: '"', close: '"' }],
    wordPattern: /[A-Za-z_]\w*|-?\d+(\.\d+)?/,
  });
  monaco.languages.registerCompletionItemProvider(LANGUAGE_ID, {
    triggerCharacters: ['.', '"'],
    provideCompletionItems(model, position) {
      const word = model.getWordUntilPosition(position);
      const range = new monaco.Range(position.lineNumber, word.startColumn, position.lineNumber, word.endColumn);
      const entries = completionsAt(model.getValue(), model.getOffsetAt(position), context());
      return {
        suggestions: entries.map((e) => ({
          label: e.label,
          kind: completionKind(e.kind),
          detail: e.detail,
          documentation: e.documentation ? { value: e.documentation } : undefined,
          insertText: e.insertText,
          insertTextRules: e.isSnippet ? monaco.languages.CompletionItemInsertTextRule.InsertAsSnippet : undefined,
          range,
          sortText: (e.kind === 'keyword' ? '2' : e.kind === 'host' ? '1' : '0') + e.label,
        })),
      };
    },
  });
  monaco.languages.registerHoverProvider(LANGUAGE_ID, {
    provideHover(model, position) {
      const hover = hoverAt(model.getValue(), model.getOffsetAt(position), context());
      if (!hover) return null;
      const start = model.getPositionAt(hover.start);
      const end = model.getPositionAt(hover.end);
      return {
        range: new monaco.Range(start.lineNumber, start.column, end.lineNumber, end.column),
        contents: hover.contents.map((value) => ({ value })),
      };
    },
  });
}

export function toMonacoMarkers(markers: readonly MarkerData[]): monaco.editor.IMarkerData[] {
  return markers.map((m) => ({
    ...m,
    severity: m.severity === 'error' ? monaco.MarkerSeverity.Error : monaco.MarkerSeverity.Warning,
  }));
}
