/**
 * `import … from 'cantrip-lang/server'`: the zone server's client protocol
 * (every message between a zone room and a game client, docs/server.md) and
 * the server's entry points.
 *
 * The server's npm packages (Colyseus, Redis, express) are optional peer
 * dependencies: importing this entry never loads them, and its types never
 * name them, so a game that only speaks the protocol type-checks and runs
 * without them. A plain list of exports, one line per module.
 */
export * from './protocol.js';
export { ServerPackagesMissing, assertServerPackages, missingServerPackages, serverPackages } from './server-packages.js';
