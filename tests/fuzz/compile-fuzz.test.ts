/**
 * Fuzz 1: the compiler on hostile source. Random token soup, raw unicode, and
 * mutations of every spell in spells/ and tests/conformance/ (deletions,
 * duplications, insertions, 400-deep nesting, truncations, splices):
 * compile() returns diagnostics and never throws; a module comes back exactly
 * when there is no error; every diagnostic is a clean message with a line.
 * Whatever still compiles must verify and run safely under small budgets.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compile } from '../../compiler/index.js';
import { WORLD_HOST_FUNCTIONS } from '../../runtime/host/host-api.js';
import { verifyModule } from '../../vm/verifier.js';
import { spellCorpus } from './corpus.js';
import { checkProperty, LEAKED_JS_ERROR } from './fuzz-settings.js';
import { runModuleSafely } from './safe-run.js';
import { mutatedSource, tokenSoup, unicodeNoise } from './source-mutation.js';

const corpus = spellCorpus();

/** Everything wrong with compiling `source` (empty when compile() kept its contract). */
function compileProblems(source: string): string[] {
  let result: ReturnType<typeof compile>;
  try {
    result = compile(source, { sourceName: 'fuzz.spell', hosts: WORLD_HOST_FUNCTIONS });
  } catch (error) {
    return [`compile() threw: ${error instanceof Error ? `${error.message}\n${error.stack}` : String(error)}`];
  }
  const problems: string[] = [];
  const { module, diagnostics } = result;
  if (!Array.isArray(diagnostics)) return ['diagnostics is not an array'];
  const hasError = diagnostics.some((d) => d.severity === 'error');
  if ((module === null) !== hasError) problems.push(`module is ${module === null ? 'null' : 'set'} but hasError = ${hasError}`);
  for (const d of diagnostics) {
    if (typeof d.message !== 'string' || d.message.length === 0) problems.push('a diagnostic without a message');
    else if (LEAKED_JS_ERROR.test(d.message)) problems.push(`diagnostic leaks a JS error: ${d.message}`);
    if (!Number.isInteger(d.line) || d.line < 1) problems.push(`diagnostic with line ${d.line}: ${d.message}`);
  }
  if (module !== null) {
    try {
      verifyModule(module, WORLD_HOST_FUNCTIONS);
    } catch (error) {
      problems.push(`compiled module fails verification: ${String(error)}`);
      return problems;
    }
    problems.push(...runModuleSafely(module, WORLD_HOST_FUNCTIONS));
  }
  return problems;
}

function expectClean(source: string, from: string): void {
  const problems = compileProblems(source);
  expect(problems, `from ${from}:\n${source.slice(0, 2000)}`).toEqual([]);
}

describe('the compiler on hostile source', () => {
  it('has a corpus of real programs to mutate', () => {
    expect(corpus.length).toBeGreaterThan(100);
  });

  it('every file of the corpus keeps the contract unmutated', () => {
    for (const file of corpus) expectClean(file.text, file.name);
  });

  it('token soup: diagnostics, never a throw', () => {
    checkProperty('compile/token-soup', fc.property(tokenSoup, (source) => expectClean(source, 'token soup')), 1_500);
  });

  it('unicode noise (NUL, lone surrogates, control characters): diagnostics, never a throw', () => {
    checkProperty('compile/unicode-noise', fc.property(unicodeNoise, (source) => expectClean(source, 'unicode noise')), 800);
  });

  it('mutated and spliced real programs: diagnostics, or a module that runs safely', () => {
    checkProperty(
      'compile/mutated-corpus',
      fc.property(mutatedSource(corpus), ({ from, text }) => expectClean(text, from)),
      3_000,
    );
  });
});

describe('regressions found by the compiler fuzzers', () => {
  it.each([
    ['400 nested if statements', 'if (true) '.repeat(400) + 'print 1;'],
    ['400 nested function declarations', 'fun f() {'.repeat(400) + '}'.repeat(400)],
    ['400 chained assignments', 'var a; ' + 'a = '.repeat(400) + '1;'],
    ['400 chained property reads', 'var a; print a' + '.b'.repeat(400) + ';'],
    ['400 chained calls', 'fun f() { return f; } print f' + '()'.repeat(400) + ';'],
    ['400 chained returns', 'fun f() { ' + 'return '.repeat(400) + '1; }'],
    ['400 chained prints', 'print '.repeat(400) + '1;'],
    ['a lone surrogate in a string', 'print "\ud800";'],
    ['a NUL in an identifier', 'var a\0b = 1;'],
  ])('%s', (_name, source) => expectClean(source, 'regression'));
});
