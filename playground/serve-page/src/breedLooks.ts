/**
 * How a breed looks on the page. The protocol names breeds but sends no
 * colours or glyphs, so each breed name gets a colour from a fixed palette
 * (the same name always the same colour, on every page) and its initial as
 * its glyph.
 */

const PALETTE = ['#5b8def', '#b22222', '#6b8e23', '#9370db', '#ff7f50', '#ffd700', '#8fbc8f', '#e0af68', '#7dcfff', '#f7768e'];

/** A stable hash of a name (FNV-1a, 32 bits). */
function hash(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    h ^= name.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function breedColour(breed: string): string {
  return PALETTE[hash(breed) % PALETTE.length]!;
}

export function breedGlyph(breed: string): string {
  return breed.charAt(0).toUpperCase() || '?';
}
