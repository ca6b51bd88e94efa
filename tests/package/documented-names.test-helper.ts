/**
 * The types and functions the docs name, derived from the docs themselves so
 * the list never has to be kept by hand:
 *
 * - every name a code block of README.md or docs/*.md (or docs/examples/)
 *   imports from `cantrip-lang` or `cantrip-lang/server`;
 * - every PascalCase name the user-facing docs write in backticks
 *   (`RestoreOptions`, `World.cast`) that a shipped module of the library
 *   declares as an export — from server/protocol.ts it belongs to
 *   `cantrip-lang/server`, from anywhere else to the package root.
 *
 * A doc that explains how something works inside names internal classes too
 * (`WorldCasting`, `CastLoopRunner`); those are INTERNAL below, each with why,
 * and the test checks that each is still mentioned and still not exported, so
 * the list cannot rot.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../..', import.meta.url));

/** Names the docs mention while explaining the implementation: not part of the API, never exported. */
export const INTERNAL: Readonly<Record<string, string>> = {
  CastContext: 'runtime.md walks through how a cast runs; the context is made and used inside the world',
  WorldGameHost: 'runtime.md: the world side of the host calls, reached through WorldHostContext',
  WorldCasting: 'runtime.md: the part of World that casts; games call World.cast',
  WorldState: 'runtime.md: the state the parts of World share; games hold a World',
  CastLoopRunner: 'runtime.md: the compiled tier of cast loops, inside the VM',
  LoopRunner: 'runtime.md: the compiled tier of cast loops, inside the VM',
  CastLoopVM: 'runtime.md: what the compiled cast loops read of the VM',
  VmRunState: 'runtime.md: the VM’s private run state',
  ObjFunction: 'embedding.md / runtime.md name its fields to explain the compiled tier',
  IncrementalParser: 'language-service.md: how the service reparses; editors use languageService',
};

/** The docs a user reads to use the package (decisions.md, performance-history.md, compiled-tier.md and bytecode.md explain internals). */
const USER_DOCS = ['README.md', 'docs/embedding.md', 'docs/runtime.md', 'docs/language-service.md', 'docs/server.md', 'docs/security.md', 'docs/cli.md', 'docs/editors.md'];

export interface DocumentedNames {
  /** Names to import from `cantrip-lang`, each with the doc that names it first. */
  readonly root: ReadonlyMap<string, string>;
  /** Types of the root's `languageService` namespace (docs/language-service.md). */
  readonly languageService: ReadonlyMap<string, string>;
  /** Names to import from `cantrip-lang/server`. */
  readonly server: ReadonlyMap<string, string>;
  /** INTERNAL names the user docs still mention. */
  readonly internalMentioned: ReadonlySet<string>;
}

const IMPORT = /import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+['"](cantrip-lang(?:\/server)?)['"]/g;
const CODE_BLOCK = /^```(?:ts|typescript|js|javascript|mjs|cjs)\n([\s\S]*?)^```/gm;
const DECLARATION = /^export (?:declare )?(?:abstract )?(?:class|interface|type|function|const|enum) ([A-Za-z_$][\w$]*)/gm;

/** Where an export belongs: the package root, its `languageService` namespace (compiler/service/), or `cantrip-lang/server`. */
type Where = 'root' | 'languageService' | 'server';

/** `export … Name` declarations of the shipped library's .d.ts files (dist/), by name → where. */
function declaredExports(): Map<string, Where> {
  const found = new Map<string, Where>();
  const dist = join(root, 'dist');
  for (const dir of ['compiler', 'vm', 'runtime']) {
    for (const file of readdirSync(join(dist, dir), { recursive: true, encoding: 'utf8' })) {
      if (!file.endsWith('.d.ts') || file.includes('.test')) continue;
      const where = file.startsWith('service/') ? 'languageService' : 'root';
      for (const m of readFileSync(join(dist, dir, file), 'utf8').matchAll(DECLARATION)) found.set(m[1]!, where);
    }
  }
  for (const m of readFileSync(join(dist, 'server', 'protocol.d.ts'), 'utf8').matchAll(DECLARATION)) found.set(m[1]!, 'server');
  return found;
}

export function documentedNames(): DocumentedNames {
  const rootNames = new Map<string, string>();
  const serverNames = new Map<string, string>();
  const serviceNames = new Map<string, string>();
  const internalMentioned = new Set<string>();
  const add = (names: Map<string, string>, name: string, doc: string): void => {
    if (!names.has(name)) names.set(name, doc);
  };
  const allDocs = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
  const examples = readdirSync(join(root, 'docs', 'examples')).filter((f) => f.endsWith('.ts')).map((f) => `docs/examples/${f}`);
  for (const doc of [...allDocs, ...examples]) {
    const text = readFileSync(join(root, doc), 'utf8');
    const code = doc.endsWith('.ts') ? [text] : [...text.matchAll(CODE_BLOCK)].map((m) => m[1]!);
    for (const block of code) {
      for (const m of block.matchAll(IMPORT)) {
        for (const part of m[1]!.split(',')) {
          const name = part.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0]!;
          if (name !== '') add(m[2] === 'cantrip-lang' ? rootNames : serverNames, name, doc);
        }
      }
    }
  }
  const declared = declaredExports();
  for (const doc of USER_DOCS) {
    const text = readFileSync(join(root, doc), 'utf8');
    for (const m of text.matchAll(/`([A-Z][a-z][A-Za-z0-9]*)(?=[`.<(\[])/g)) {
      const name = m[1]!;
      const where = declared.get(name);
      if (where === undefined) continue;
      if (name in INTERNAL) internalMentioned.add(name);
      else add(where === 'server' ? serverNames : where === 'languageService' ? serviceNames : rootNames, name, doc);
    }
  }
  return { root: rootNames, languageService: serviceNames, server: serverNames, internalMentioned };
}

/**
 * A TypeScript module that imports every documented name: tsc reports each
 * one a module does not export (TS2305 "has no exported member"), used or
 * not. `type` imports accept types and values alike.
 */
export function importEveryName(names: DocumentedNames, packageName: string): string {
  const imports = (map: ReadonlyMap<string, string>, from: string): string =>
    `import {\n${[...map.keys()].sort().map((name) => `  type ${name}, // ${map.get(name)}`).join('\n')}\n} from '${from}';\n`;
  const service = [...names.languageService.keys()].sort().map((name) => `export type Service_${name} = languageService.${name}; // ${names.languageService.get(name)}\n`);
  return (
    `// Every type and function the docs name (tests/package/documented-names.test-helper.ts).\n` +
    `import { languageService } from '${packageName}';\n${imports(names.root, packageName)}${imports(names.server, `${packageName}/server`)}${service.join('')}`
  );
}
