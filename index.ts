/**
 * `import … from 'cantrip-lang'`: the compiler, the VM and the game runtime.
 * See docs/embedding.md.
 */

export {
  compile,
  tokenize,
  parse,
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
} from './compiler/index.js';
export * as ast from './compiler/ast.js';
export * from './vm/index.js';
export * from './runtime/index.js';
