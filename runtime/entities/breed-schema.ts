/**
 * The shape of a breeds file, as JSON Schema (validated with ajv). Semantic
 * rules — parents exist, no cycles, spell names defined — live in breeds.ts.
 *
 * {
 *   "breeds": [
 *     { "name": "Troll", "health": 25, "attributes": { "attackText": "The troll hits you!" } },
 *     { "name": "Troll Archer", "parent": "Troll", "attributes": { "attackText": "The troll archer fires an arrow!" } }
 *   ]
 * }
 */

/** Names spells can reach as `e.name`: identifiers. */
export const IDENTIFIER_PATTERN = '^[A-Za-z_][A-Za-z0-9_]*$';

/** The spell slots a breed can fill, and what calls them. */
export const BREED_SPELL_SLOTS = ['attack', 'tick', 'onEnter', 'onLeave'] as const;

const finite = (minimum: number, maximum: number) => ({ type: 'number', minimum, maximum }) as const;

export const BREED_SCHEMA = {
  type: 'object',
  required: ['breeds'],
  additionalProperties: false,
  properties: {
    $schema: { type: 'string' },
    breeds: {
      type: 'array',
      maxItems: 10_000,
      items: {
        type: 'object',
        required: ['name'],
        additionalProperties: false,
        properties: {
          name: { type: 'string', minLength: 1, maxLength: 64 },
          parent: { type: 'string', minLength: 1, maxLength: 64 },
          abstract: { type: 'boolean' },
          description: { type: 'string', maxLength: 1000 },
          health: finite(0, 1e9),
          speed: finite(0, 1e6),
          radius: finite(0, 1e6),
          interest: finite(0, 1e6),
          color: { type: 'string', maxLength: 32 },
          glyph: { type: 'string', minLength: 1, maxLength: 4 },
          tags: {
            type: 'array',
            maxItems: 64,
            uniqueItems: true,
            items: { type: 'string', pattern: IDENTIFIER_PATTERN, maxLength: 64 },
          },
          spells: {
            type: 'object',
            additionalProperties: false,
            properties: Object.fromEntries(
              BREED_SPELL_SLOTS.map((slot) => [slot, { type: 'string', pattern: IDENTIFIER_PATTERN, maxLength: 64 }]),
            ),
          },
          attributes: {
            type: 'object',
            maxProperties: 256,
            propertyNames: { pattern: IDENTIFIER_PATTERN, maxLength: 64 },
            additionalProperties: {
              anyOf: [finite(-1e15, 1e15), { type: 'string', maxLength: 10_000 }, { type: 'boolean' }],
            },
          },
        },
      },
    },
  },
} as const;
