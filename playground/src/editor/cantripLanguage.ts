/**
 * Registers Cantrip with Monaco: Monarch highlighting, the dark theme and the
 * language configuration — what the editor needs to show a spell. The
 * providers that answer from the library's language service
 * (./languageProviders.ts) come with the compiler, after the page is ready.
 */
import { LANGUAGE_ID, cantripMonarch } from '../language/monarch.js';
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

/** Registers the language once; `hostNames` are highlighted as built-ins. */
export function registerCantrip(hostNames: readonly string[]): void {
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
  bindGoToDefinition();
}

export function toMonacoMarkers(markers: readonly MarkerData[]): monaco.editor.IMarkerData[] {
  return markers.map((m) => ({
    ...m,
    severity: m.severity === 'error' ? monaco.MarkerSeverity.Error : monaco.MarkerSeverity.Warning,
  }));
}

/**
 * Go to Definition is F12, and Ctrl/Cmd+F12 too. In a browser Monaco binds
 * it to Ctrl+F12 as well (F12 opens the browser's developer tools outside
 * the editor) and shows that key in the context menu; but Go to
 * Implementations holds Ctrl+F12 too and wins, and Cantrip has no
 * implementations, so that key did nothing. Ctrl+F12 is taken back from
 * Implementations, and F12 bound last so the menu shows it.
 */
function bindGoToDefinition(): void {
  const { KeyMod, KeyCode } = monaco;
  const when = 'editorTextFocus';
  monaco.editor.addKeybindingRules([
    { keybinding: KeyMod.CtrlCmd | KeyCode.F12, command: '-editor.action.goToImplementation' },
    { keybinding: KeyMod.CtrlCmd | KeyCode.F12, command: '-editor.action.revealDefinition' },
    { keybinding: KeyMod.CtrlCmd | KeyCode.F12, command: 'editor.action.revealDefinition', when },
    { keybinding: KeyCode.F12, command: '-editor.action.revealDefinition' },
    { keybinding: KeyCode.F12, command: 'editor.action.revealDefinition', when },
  ]);
}
