/**
 * The files of the VS Code extension that are generated from the compiler's
 * lexicon and the host API table. They are committed (so the extension folder
 * works as it is checked out); `npm run vsix` rewrites them, and
 * grammar.test.ts fails when a committed copy is stale.
 */
import { WORLD_HOST_FUNCTIONS } from '../../../runtime/host/host-api.js';
import { languageConfiguration } from './language-configuration.js';
import { textMateGrammar } from './textmate.js';

export interface GeneratedFile {
  /** Relative to editors/vscode/. */
  readonly path: string;
  readonly text: string;
}

export const GRAMMAR_PATH = 'syntaxes/cantrip.tmLanguage.json';
export const LANGUAGE_CONFIGURATION_PATH = 'language-configuration.json';

/** The built-in host functions' names: highlighted as `support.function`. */
export function builtinHostNames(): string[] {
  return WORLD_HOST_FUNCTIONS.map((f) => f.name);
}

export function generatedFiles(): GeneratedFile[] {
  return [
    { path: GRAMMAR_PATH, text: json(textMateGrammar(builtinHostNames())) },
    { path: LANGUAGE_CONFIGURATION_PATH, text: json(languageConfiguration()) },
  ];
}

function json(value: unknown): string {
  return JSON.stringify(value, null, 2) + '\n';
}
