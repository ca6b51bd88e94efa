/**
 * The compiler's limits, in one place. Each is reported as a clean compile
 * error at the construct that exceeds it, never as a crash.
 *
 * - Locals, upvalues, parameters and arguments keep the book's byte-sized
 *   limits, so Lox programs fail exactly where clox fails.
 * - Code words are Int32, so the rest could be much larger; they are capped
 *   at 2^24 to keep every operand comfortably inside the .spb format and the
 *   verifier's tables, far beyond any hand-written spell.
 */

/** Frame slots per function, slot 0 (the callee / `this`) included: "Too many local variables in function." */
export const MAX_LOCALS = 256;
/** Captured variables per closure: "Too many closure variables in function." */
export const MAX_UPVALUES = 256;
export { MAX_ARGUMENTS, MAX_PARAMETERS } from './parser.js';
/** Distinct numbers and strings in one module: "Too many constants in one module." */
export const MAX_CONSTANTS = 1 << 24;
/** Global variable slots in one module: "Too many global variables in one module." */
export const MAX_GLOBALS = 1 << 24;
/** Function prototypes in one module: "Too many functions in one module." */
export const MAX_FUNCTIONS = 1 << 24;
/** Code words in one function (jump targets are absolute word offsets): "Too much code to jump over." / "Function too large." */
export const MAX_CODE_WORDS = 1 << 24;
/** Elements in one list literal (they all sit on the stack at once): "Too many elements in list literal." */
export const MAX_LIST_ELEMENTS = 65535;
