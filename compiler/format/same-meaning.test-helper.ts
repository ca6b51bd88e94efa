/**
 * The formatter's promise, checked: formatting `source` is idempotent and
 * changes no meaning — both texts compile to the same Module (code,
 * constants, functions, globals, host imports, spells), line tables aside.
 */

import { expect } from 'vitest';
import { compile } from '../compile.js';
import { WORLD_HOST_FUNCTIONS } from '../../runtime/host/host-api.js';
import type { Module } from '../../vm/module.js';
import { formatSource } from './index.js';

/** A Module as comparable data, without its line tables and source name. */
export function moduleMeaning(module: Module): unknown {
  return {
    constants: module.constants,
    globals: module.globals,
    hostImports: module.hostImports,
    spells: module.spells,
    functions: module.functions.map(({ lines: _lines, code, ...rest }) => ({ ...rest, code: Array.from(code) })),
  };
}

/**
 * Formats `source` (which must have no syntax errors), checks the result is
 * a fixed point and, when `source` compiles, that it compiles to the same
 * module. Returns the formatted text.
 */
export function expectFormatKeepsMeaning(source: string, label = '<source>'): string {
  const once = formatSource(source);
  if (!once.ok) throw new Error(`${label}: refused: ${once.diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`).join('; ')}`);
  const twice = formatSource(once.text);
  expect(twice, `${label}: formatting the formatted text`).toEqual({ ok: true, text: once.text });
  const before = compile(source, { hosts: WORLD_HOST_FUNCTIONS });
  const after = compile(once.text, { hosts: WORLD_HOST_FUNCTIONS });
  expect(after.module === null, `${label}: compiles after formatting iff it did before`).toBe(before.module === null);
  if (before.module !== null && after.module !== null) {
    expect(moduleMeaning(after.module), `${label}: same bytecode`).toEqual(moduleMeaning(before.module));
  }
  return once.text;
}
