/**
 * The TypeScript examples of docs/*.md, compiled as a game would compile
 * them: each ```ts block is a module of a scratch project that imports the
 * package by its name (its built types, dist/*.d.ts), under `tsc --strict`.
 *
 * A block that continues an earlier one (it uses a `vm` or a `world` set up
 * above it) gets what it needs from an HTML comment right before its fence,
 * which Markdown does not show:
 *
 *   <!-- ts-context
 *   import { VM } from 'cantrip-lang';
 *   declare const vm: VM;
 *   -->
 *   ```ts
 *   …
 *
 * The scratch project lives under the repository's .tmp/, so the package's
 * dependencies and @types/node resolve from the repository's node_modules.
 *
 * The README says the package works from ES modules and from CommonJS, so
 * the examples compile both ways: a project of `"type": "module"` and one of
 * `"type": "commonjs"` (where `const { module } = …` at the top is an
 * error, and tsc emits `require`), both under `module: nodenext`.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));
const packageName = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string }).name;

export interface TypeScriptExample {
  /** `runtime.md` */
  readonly doc: string;
  /** The 1-based line of the block's first line of code in the doc. */
  readonly line: number;
  readonly code: string;
  /** The hidden lines from a `<!-- ts-context … -->` comment, or ''. */
  readonly context: string;
  /** The heading the block sits under (`## The pieces on their own`). */
  readonly heading: string;
}

export interface CompiledExamples {
  readonly examples: readonly TypeScriptExample[];
  /** tsc's errors, each as `runtime.md:191: error TS7006: …` (or `runtime.md:191 (context): …`). */
  readonly errors: readonly string[];
  /** The emitted JavaScript of an example, to run with node (cwd: the repository root). */
  outputOf(example: TypeScriptExample): string;
  /**
   * Runs an example's JavaScript with node in the scratch project, where
   * `spells/` is the repository's (what the examples read) and what an
   * example writes stays; its standard output.
   */
  run(example: TypeScriptExample): string;
  /** Delete the scratch project. */
  dispose(): void;
}

const BLOCK = /(?:^<!--\s*ts-context\n([\s\S]*?)^-->\n)?^```ts\n([\s\S]*?)^```/gm;

export function typeScriptExamples(): TypeScriptExample[] {
  const docs = readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).sort();
  const examples: TypeScriptExample[] = [];
  for (const doc of docs) {
    const text = readFileSync(join(root, 'docs', doc), 'utf8');
    for (const match of text.matchAll(BLOCK)) {
      const before = text.slice(0, match.index);
      const fenceLine = before.split('\n').length + (match[1] === undefined ? 0 : match[1].split('\n').length + 1);
      const headings = [...before.matchAll(/^#+ .*$/gm)];
      examples.push({ doc, line: fenceLine + 1, code: match[2]!, context: match[1] ?? '', heading: headings.at(-1)?.[0] ?? '' });
    }
  }
  return examples;
}

function sourceName(example: TypeScriptExample): string {
  return `${example.doc.replace(/\.md$/, '')}-${example.line}.ts`;
}

/** What a game's package.json says its .js files are. */
export type ModuleKind = 'module' | 'commonjs';

/** Compiles every example with `tsc --strict` into a scratch project of that module kind; slow-ish (one tsc run), so call it once per kind per test file. */
export function compileTypeScriptExamples(kind: ModuleKind = 'module'): CompiledExamples {
  const examples = typeScriptExamples();
  mkdirSync(join(root, '.tmp'), { recursive: true });
  const project = mkdtempSync(join(root, '.tmp', `ts-examples-${kind}-`));
  mkdirSync(join(project, 'examples'));
  mkdirSync(join(project, 'node_modules'));
  // The package as a game's node_modules holds it: its package.json, exports and built types.
  symlinkSync(root, join(project, 'node_modules', packageName), 'dir');
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'docs-examples', private: true, type: kind }));
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        types: ['node'],
        rootDir: 'examples',
        outDir: 'out',
      },
      include: ['examples'],
    }),
  );
  const contextLines = new Map<string, { example: TypeScriptExample; lines: number }>();
  for (const example of examples) {
    const context = example.context === '' ? '' : example.context.endsWith('\n') ? example.context : example.context + '\n';
    // `export {}` makes every example a module of its own, whatever it imports.
    writeFileSync(join(project, 'examples', sourceName(example)), `${context}${example.code}export {};\n`);
    contextLines.set(sourceName(example), { example, lines: context === '' ? 0 : context.split('\n').length - 1 });
  }
  let output = '';
  try {
    execFileSync(join(root, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.json', '--strict', '--pretty', 'false'], {
      cwd: project,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    output = `${failed.stdout ?? ''}${failed.stderr ?? ''}`;
  }
  const errors = output
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const at = /^examples\/([^(]+)\((\d+),\d+\): (.*)$/.exec(line);
      const source = at === null ? undefined : contextLines.get(at[1]!);
      if (at === null || source === undefined) return line;
      const n = Number(at[2]);
      const { example, lines } = source;
      return n <= lines ? `${example.doc}:${example.line} (its ts-context, line ${n}): ${at[3]}` : `${example.doc}:${example.line + n - lines - 1}: ${at[3]}`;
    });
  const outputOf = (example: TypeScriptExample): string => join(project, 'out', sourceName(example).replace(/\.ts$/, '.js'));
  symlinkSync(join(root, 'spells'), join(project, 'spells'), 'dir');
  return {
    examples,
    errors,
    outputOf,
    run: (example) => execFileSync(process.execPath, [outputOf(example)], { cwd: project, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }),
    dispose: () => rmSync(project, { recursive: true, force: true }),
  };
}
