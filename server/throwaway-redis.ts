/**
 * A throwaway redis-server for tests and benchmarks (Debian's /usr/bin/redis-server): on a
 * free port, nothing saved to disk, stopped after. Absent binary: null, and
 * the test says it skipped.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createConnection } from 'node:net';
import { checkPortFree } from './game-server.js';

export const REDIS_SERVER = '/usr/bin/redis-server';

export interface TestRedis {
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  for (let port = 20_000 + Math.floor(Math.random() * 30_000); ; port++) {
    try {
      await checkPortFree(port);
      return port;
    } catch {
      // taken: the next
    }
  }
}

export async function startRedis(): Promise<TestRedis | null> {
  if (!existsSync(REDIS_SERVER)) {
    console.warn(`${REDIS_SERVER} is not installed: the Redis tests are skipped.`);
    return null;
  }
  const port = await freePort();
  const child: ChildProcess = spawn(REDIS_SERVER, ['--port', String(port), '--save', '', '--appendonly', 'no', '--bind', '127.0.0.1'], { stdio: 'ignore' });
  for (let i = 0; i < 100; i++) {
    if (await answers(port)) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' }, () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}
