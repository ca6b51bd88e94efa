/**
 * Scenarios: a headless simulation described as data (a breeds file, spell
 * files, the world, entities, casts at given ticks), run by `cantrip sim`
 * and by the tests; spells.test.ts runs every example in spells/.
 * This file is the folder's public face (runtime/index.ts re-exports it).
 */

export { parseScenario, startScenario, runScenario, SCENARIO_SCHEMA, type Scenario, type ScenarioFiles, type ScenarioRun } from './scenario.js';
