/**
 * From a file on disk to a Module ready for the VM: source is compiled
 * (errors printed in clox's format), bytecode is read and verified. Either
 * way the caller gets a Module or a CliFailure, never a raw exception.
 */
import { formatDiagnosticClox, type Diagnostic } from '../compiler/diagnostics.js';
import { VerifyError } from '../vm/errors.js';
import type { HostFunctionSpec } from '../vm/host.js';
import type { Module } from '../vm/module.js';
import { readSpb } from '../vm/spb.js';
import { verifyModule } from '../vm/verifier.js';
import { CliFailure, EXIT } from './exit-codes.js';
import type { SpellInput } from './input.js';

export interface CompileOutcome {
  readonly module: Module | null;
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Compiles source, turning a compiler crash into a diagnostic. The compiler
 * promises never to throw, but a JS stack overflow on absurdly nested input is
 * the one failure a user can provoke on purpose, so it gets a real message.
 */
export async function compileSource(
  text: string,
  sourceName: string,
  hosts: readonly HostFunctionSpec[],
  entityProperties?: readonly string[],
): Promise<CompileOutcome> {
  // Loaded on demand: building the parser is most of the CLI's start-up time,
  // and --help, --version and running .spb files do not need it.
  const { compile } = await import('../compiler/compile.js');
  try {
    return compile(text, { sourceName, hosts, ...(entityProperties === undefined ? {} : { entityProperties }) });
  } catch (error) {
    if (!isJsStackOverflow(error)) throw error;
    const diagnostic: Diagnostic = {
      severity: 'error',
      message: 'Program is nested too deeply to compile.',
      line: 1,
      column: 1,
      endLine: 1,
      endColumn: 1,
      token: '',
    };
    return { module: null, diagnostics: [diagnostic] };
  }
}

export function isJsStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && /call stack/i.test(error.message);
}

/**
 * Compiles or loads the input; compile errors and verify errors become a
 * CliFailure with exit code 65. `onWarnings` receives the warnings of a
 * source that compiled (`compile` prints them; `run` keeps clox's silence).
 */
export async function loadModule(
  input: SpellInput,
  hosts: readonly HostFunctionSpec[],
  onWarnings?: (warnings: readonly Diagnostic[]) => void,
): Promise<Module> {
  if (input.kind === 'bytecode') return loadBytecode(input.path, input.bytes, hosts);
  const { module, diagnostics } = await compileSource(input.text, input.path, hosts);
  if (module === null) {
    const errors = diagnostics.filter((d) => d.severity === 'error').map(formatDiagnosticClox);
    throw new CliFailure(errors.join('\n'), EXIT.dataError);
  }
  if (diagnostics.length > 0) onWarnings?.(diagnostics);
  return module;
}

export function loadBytecode(path: string, bytes: Uint8Array, hosts: readonly HostFunctionSpec[]): Module {
  try {
    const module = readSpb(bytes);
    verifyModule(module, hosts);
    return module;
  } catch (error) {
    if (error instanceof VerifyError) throw badBytecode(path, error);
    throw error;
  }
}

export function badBytecode(path: string, error: VerifyError): CliFailure {
  return new CliFailure(`cantrip: ${path} is not valid Cantrip bytecode: ${error.message}`, EXIT.dataError);
}
