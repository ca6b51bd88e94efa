/**
 * The compiler's limits, in one place. Each is reported as a clean compile
 * error at the construct that exceeds it, never as a crash.
 *
 * - Locals, upvalues, parameters and arguments keep the book's byte-sized
 *   limits, so Lox programs fail exactly where clox fails.
 * - The module-wide ones are the verifier's own bounds (vm/verifier.ts), so
 *   whatever compiles also loads; they are far beyond any hand-written spell.
 */

import { VERIFIER_LIMITS } from '../vm/verifier.js';

/** Frame slots per function, slot 0 (the callee / `this`) included: "Too many local variables in function." */
export const MAX_LOCALS = 256;
/** Captured variables per closure: "Too many closure variables in function." */
export const MAX_UPVALUES = 256;
export { MAX_ARGUMENTS, MAX_PARAMETERS } from './parser.js';
/** Bracket / block nesting: "Too much nesting (the limit is 256)." (compiler/nesting.ts) */
export { MAX_NESTING } from './nesting.js';
/** Tokens in one program, counted before lexing: "Program too large: …" (compiler/size-guard.ts) */
export { MAX_TOKENS } from './size-guard.js';
/** Distinct numbers and strings in one module: "Too many constants in one module." */
export const MAX_CONSTANTS = VERIFIER_LIMITS.constants;
/** Global variable slots in one module: "Too many global variables in one module." */
export const MAX_GLOBALS = VERIFIER_LIMITS.globals;
/** Function prototypes in one module: "Too many functions in one module." */
export const MAX_FUNCTIONS = VERIFIER_LIMITS.functions;
/** Code words in one function: "Function too large." */
export const MAX_CODE_WORDS = VERIFIER_LIMITS.codeWordsPerFunction;
/** Code words in the whole module: "Program too large." */
export const MAX_TOTAL_CODE_WORDS = VERIFIER_LIMITS.codeWordsTotal;
/** Elements in one list literal (they all sit on the stack at once): "Too many elements in list literal." */
export const MAX_LIST_ELEMENTS = 65535;
/** Entries in one map literal (BUILD_MAP's operand; each entry is two stack slots). */
export const MAX_MAP_ENTRIES = 32767;
/** Text pieces and expressions in one template string (TEMPLATE's operand). */
export const MAX_TEMPLATE_PARTS = 65535;
