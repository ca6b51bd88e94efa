/** The names the editor's two models go by (the language service knows the spell by SPELL_URI). */
export const SPELL_URI = 'file:///spell.cantrip';
export const BREEDS_URI = 'file:///breeds.json';
