/** What `cantrip api` prints (bin/commands/api.ts declares the command). */
import { hostApiDeclaration } from '../../vm/host-api-json.js';
import type { HostFunctionSpec } from '../../vm/host.js';
import { cliHostSpecs } from '../api-file.js';
import { EXIT } from '../exit-codes.js';
import type { CliIO } from '../io.js';
import { terminalSafe } from '../terminal-text.js';

export function listApi(options: { readonly json?: boolean; readonly api?: string }, io: CliIO): number {
  const specs = cliHostSpecs(options.api, io);
  io.stdout(options.json ? JSON.stringify(hostApiDeclaration(specs), null, 2) + '\n' : specs.map(describeSpec).join('\n') + '\n');
  return EXIT.ok;
}

/** One signature and its doc line. The names are identifiers and the types a fixed set (the schema's); the doc is free text from the file, so it is escaped. */
function describeSpec(spec: HostFunctionSpec): string {
  const params = spec.params.map((p) => `${p.name}${p.optional ? '?' : ''}: ${p.type}`).join(', ');
  return `${spec.name}(${params}) → ${spec.returns}\n    ${terminalSafe(spec.doc)}`;
}
