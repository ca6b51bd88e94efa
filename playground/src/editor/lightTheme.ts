/**
 * The light editor theme, the counterpart of the dark one in
 * cantripLanguage.ts: the same token names, colours that read on white.
 */
import { monaco } from './monaco.js';

export const LIGHT_THEME_ID = 'cantrip-light';

export function defineLightTheme(): void {
  monaco.editor.defineTheme(LIGHT_THEME_ID, {
    base: 'vs',
    inherit: true,
    rules: [
      { token: 'keyword', foreground: '7c3aed' },
      { token: 'keyword.spell', foreground: 'b45309', fontStyle: 'bold' },
      { token: 'predefined', foreground: '0369a1' },
      { token: 'number', foreground: 'c2410c' },
      { token: 'string', foreground: '15803d' },
      { token: 'string.quote', foreground: '15803d' },
      { token: 'comment', foreground: '6b7280', fontStyle: 'italic' },
      { token: 'operator', foreground: '0e7490' },
      { token: 'identifier', foreground: '1f2937' },
      { token: 'json.key', foreground: '1d4ed8' },
    ],
    colors: {
      'editor.background': '#fbfbfd',
      'editor.lineHighlightBackground': '#eef1f6',
      'editorLineNumber.foreground': '#9aa1ae',
      'editorGutter.background': '#fbfbfd',
    },
  });
}
