/**
 * Registers Cantrip with Monaco: Monarch highlighting, the dark theme, the
 * language configuration, and the providers (./languageProviders.ts) that
 * answer from the library's language service.
 */
import { LANGUAGE_ID, cantripMonarch } from '../language/monarch.js';
import { registerLanguageProviders, type DocumentFor } from './languageProviders.js';
import type { MarkerData } from '../language/markers.js';
import { monaco } from './monaco.js';

export const THEME_ID = 'cantrip-dark';

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

/** Registers everything once; `documentFor` gives the language service's analysis of a model's current text. */
export function registerCantrip(hostNames: readonly string[], documentFor: DocumentFor): void {
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
  registerLanguageProviders(documentFor);
}

export function toMonacoMarkers(markers: readonly MarkerData[]): monaco.editor.IMarkerData[] {
  return markers.map((m) => ({
    ...m,
    severity: m.severity === 'error' ? monaco.MarkerSeverity.Error : monaco.MarkerSeverity.Warning,
  }));
}
