/**
 * The host API reference in docs/runtime.md is generated from the table in
 * host-api.ts (and a test keeps the two equal): one place defines it.
 */

import type { HostFunctionSpec } from '../../vm/host.js';

export const HOST_API_BEGIN = '<!-- host-api:begin (generated from runtime/host-api.ts; do not edit) -->';
export const HOST_API_END = '<!-- host-api:end -->';

function signature(fn: HostFunctionSpec): string {
  const params = fn.params.map((p) => `${p.name}${p.optional ? '?' : ''}: ${p.type}`).join(', ');
  return `\`${fn.name}(${params}) → ${fn.returns}\``;
}

function paramNotes(fn: HostFunctionSpec): string {
  const notes = fn.params.filter((p) => p.doc).map((p) => `*${p.name}*: ${p.doc}`);
  return notes.length ? ` (${notes.join('; ')})` : '';
}

export function renderHostApiTable(fns: readonly HostFunctionSpec[]): string {
  const rows = fns.map((fn) => `| ${signature(fn)} | ${fn.doc.replace(/\|/g, '\\|')}${paramNotes(fn).replace(/\|/g, '\\|')} |`);
  return ['| function | what it does |', '| --- | --- |', ...rows].join('\n');
}

/** Replace the generated section of a document with the current table. */
export function withHostApiTable(doc: string, fns: readonly HostFunctionSpec[]): string {
  const start = doc.indexOf(HOST_API_BEGIN);
  const end = doc.indexOf(HOST_API_END);
  if (start < 0 || end < start) throw new Error('docs/runtime.md has no host-api markers.');
  return doc.slice(0, start + HOST_API_BEGIN.length) + '\n' + renderHostApiTable(fns) + '\n' + doc.slice(end);
}
