/**
 * JavaScript peers: QuickJS compiled to WebAssembly (quickjs-emscripten's
 * release sync build) and Node's own V8. The same .js program runs on both,
 * wrapped in a function so top-level declarations can be re-run in one context.
 */

import { newQuickJSWASMModule, RELEASE_SYNC, type QuickJSContext } from 'quickjs-emscripten';
import { formatPrinted, type Engine } from '../engine.js';

function wrapProgram(source: string): string {
  return `(function () {\n${source}\n})();`;
}

/** A QuickJS context from quickjs-emscripten's release sync build (bench/embedding calls into it by handle). */
export async function newQuickJsContext(): Promise<QuickJSContext> {
  const quickjs = await newQuickJSWASMModule(RELEASE_SYNC);
  return quickjs.newContext();
}

export async function createQuickJsEngine(): Promise<Engine> {
  const context = await newQuickJsContext();
  let lines: string[] = [];
  const print = context.newFunction('print', (...args) => {
    lines.push(args.map((handle) => formatPrinted(context.dump(handle))).join('\t'));
  });
  context.setProp(context.global, 'print', print);
  print.dispose();

  return {
    name: 'quickjs',
    language: 'js',
    run(source) {
      lines = [];
      const result = context.evalCode(wrapProgram(source), 'benchmark.js');
      if (result.error) {
        const error: unknown = context.dump(result.error);
        result.error.dispose();
        throw new Error(`QuickJS: ${JSON.stringify(error)}`);
      }
      result.value.dispose();
      return lines;
    },
    collect() {
      context.runtime.executePendingJobs();
    },
    dispose() {
      context.dispose();
    },
  };
}

export function createNodeEngine(): Engine {
  let lines: string[] = [];
  const print = (...args: unknown[]): void => {
    lines.push(args.map(formatPrinted).join('\t'));
  };
  return {
    name: 'node',
    language: 'js',
    run(source) {
      lines = [];
      // new Function keeps the program in its own scope, like the QuickJS wrapper.
      const program = new Function('print', wrapProgram(source)) as (p: typeof print) => void;
      program(print);
      return lines;
    },
    collect() {},
    dispose() {},
  };
}
