/**
 * The breeds a first visit starts with: the repository's spells/breeds.json,
 * bundled as text. Apart from breedsData.ts (which loads it with the runtime's
 * validator) so the editor can show it before the runtime has loaded.
 */
const breedFiles = import.meta.glob<string>('../../spells/breeds.json', { query: '?raw', import: 'default', eager: true });

export const DEFAULT_BREEDS_JSON: string = Object.values(breedFiles)[0] ?? '{\n  "breeds": []\n}\n';
