/**
 * The host API the CLI compiles, checks and runs spells against: the core
 * builtins plus the game's world API, so `cantrip check spells/fireball.spell`
 * knows `damage` and `nearby`. Outside `cantrip sim` there is no world, so a
 * world function reached by `cantrip run` ends with a clean runtime error
 * saying it needs a cast on a world.
 *
 * A game's own functions come from an `--api` file (bin/api-file.ts, kept
 * apart: reading one loads the JSON schema validator, which `run` never needs).
 */
export { WORLD_HOST_FUNCTIONS as CLI_HOSTS } from '../runtime/host/host-api.js';
