/**
 * Large spell documents for the language server's memory test and
 * benchmark: the editor benchmark's realistic spell (functions, loops,
 * classes, spells, every name unique), cut at a declaration boundary to
 * just under `bytes` characters.
 */
import { generateSpell } from '../../bench/playground/spell-generator.js';

export function largeSpell(bytes: number, variant = 0): string {
  // The generated lines average over 20 characters: this many lines is more than enough.
  const text = `// document ${variant}\n${generateSpell(Math.ceil(bytes / 20))}`;
  return text.slice(0, text.lastIndexOf('\n\n', bytes) + 2);
}
