/**
 * `import … from 'cantrip-lang'`: the compiler, the VM and the game runtime,
 * and the language service editors use.
 * See docs/embedding.md.
 */

export {
  compile,
  tokenize,
  parse,
  formatSource,
  formatDiagnosticClox,
  formatCodeFrame,
  formatDiagnostics,
  formatLocation,
  type CompileOptions,
  type CompileResult,
  type Diagnostic,
  type Severity,
  type TokenInfo,
  type ParseResult,
  type FormatOptions,
  type FormatResult,
} from './compiler/index.js';
export * as ast from './compiler/ast.js';
/** The language service editors answer from (docs/language-service.md). */
export * as languageService from './compiler/service/index.js';
export { languageWorld } from './runtime/entities/language-world.js';
export * from './vm/index.js';
export * from './runtime/index.js';
