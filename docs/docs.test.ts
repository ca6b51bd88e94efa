/**
 * The examples in the docs are part of the test suite: every ```cantrip block
 * in docs/*.md is compiled and run, and what it prints must match its
 * `// expect:` comments.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compile } from '../compiler/index.js';
import { VM } from '../vm/vm.js';

const docsDir = new URL('.', import.meta.url);

interface Example {
  readonly file: string;
  readonly line: number;
  readonly source: string;
}

function examplesIn(file: string): Example[] {
  const text = readFileSync(new URL(file, docsDir), 'utf8');
  const examples: Example[] = [];
  const fence = /^```cantrip\n([\s\S]*?)^```/gm;
  for (const match of text.matchAll(fence)) {
    const line = text.slice(0, match.index).split('\n').length + 1;
    examples.push({ file, line, source: match[1]! });
  }
  return examples;
}

function expectedOutput(source: string): string[] {
  return [...source.matchAll(/\/\/ expect: ?(.*)$/gm)].map((m) => m[1]!);
}

const files = readdirSync(docsDir).filter((f) => f.endsWith('.md'));
const examples = files.flatMap(examplesIn);

describe('documentation examples', () => {
  it('there are examples to run', () => {
    expect(examples.length).toBeGreaterThan(5);
  });
  for (const example of examples) {
    it(`${example.file}:${example.line}`, () => {
      const { module, diagnostics } = compile(example.source, { sourceName: example.file });
      expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      const printed: string[] = [];
      const fiber = new VM(module!, { print: (text) => printed.push(text) }).runScript();
      expect(fiber.error?.format() ?? null).toBeNull();
      expect(printed).toEqual(expectedOutput(example.source));
    });
  }
});
