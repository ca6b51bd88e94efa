/**
 * Saving files from the page: the compiled bytecode as a .spb (the same
 * bytes `cantrip compile` writes, for `cantrip run` / `disasm` or a game).
 */
import { writeSpb } from '../../vm/spb.js';
import type { Module } from '../../vm/module.js';

/** A file name from the spell's name: letters, digits, '-' and '_' only. */
export function spbFileName(name: string | null): string {
  const base = (name ?? '').replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '');
  return `${base === '' ? 'spell' : base}.spb`;
}

export function downloadSpb(module: Module, name: string | null): string {
  const file = spbFileName(name);
  const bytes = writeSpb(module);
  const url = URL.createObjectURL(new Blob([new Uint8Array(bytes)], { type: 'application/octet-stream' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = file;
  document.body.append(a);
  a.click();
  a.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return file;
}
