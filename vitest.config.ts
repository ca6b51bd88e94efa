import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**', 'dist/**', 'playground/dist/**', '.tmp/**'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
