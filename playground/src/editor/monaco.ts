/**
 * The one place Monaco is imported: the editor API plus only the
 * contributions the playground uses (not every language, which would add
 * megabytes), and the editor worker through Vite's `?worker` import.
 */
import * as monaco from 'monaco-editor/editor/editor.api.js';
import 'monaco-editor/features/codicon/register.js';
import 'monaco-editor/features/codeEditor/register.js';
import 'monaco-editor/editor/browser/coreCommands.js';
import 'monaco-editor/editor/contrib/suggest/browser/suggestController.js';
import 'monaco-editor/features/snippet/register.js';
import 'monaco-editor/features/hover/register.js';
import 'monaco-editor/features/bracketMatching/register.js';
import 'monaco-editor/features/comment/register.js';
import 'monaco-editor/features/find/register.js';
import 'monaco-editor/features/folding/register.js';
import 'monaco-editor/features/wordHighlighter/register.js';
import 'monaco-editor/features/clipboard/register.js';
import 'monaco-editor/features/contextmenu/register.js';
import 'monaco-editor/features/gotoError/register.js';
import 'monaco-editor/features/linesOperations/register.js';
import 'monaco-editor/features/multicursor/register.js';
import 'monaco-editor/features/cursorUndo/register.js';
import 'monaco-editor/features/wordOperations/register.js';
import 'monaco-editor/features/parameterHints/register.js';
import 'monaco-editor/features/quickCommand/register.js';
import 'monaco-editor/features/gotoLine/register.js';
import 'monaco-editor/features/gotoSymbol/register.js';
import 'monaco-editor/features/referenceSearch/register.js';
import 'monaco-editor/features/rename/register.js';
import 'monaco-editor/features/codeAction/register.js';
import 'monaco-editor/features/documentSymbols/register.js';
import 'monaco-editor/features/quickOutline/register.js';
import 'monaco-editor/features/format/register.js';
import EditorWorker from 'monaco-editor/editor/editor.worker.js?worker';

declare global {
  interface Window {
    MonacoEnvironment?: { getWorker(workerId: string, label: string): Worker };
  }
}

// Only the generic editor worker exists: Cantrip's language service runs on the page.
self.MonacoEnvironment = { getWorker: () => new EditorWorker() };

export { monaco };
