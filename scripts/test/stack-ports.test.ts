// `npm start` with one of its ports held by another program (a plain TCP server here): it says which port and which
// variable moves it, and exits non-zero before starting anything, for the embedded PostgreSQL, its redis-server, the
// gateway and each API. And with no redis-server to run, it says so as early.
import net from 'node:net';
import { rm } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { quietPort, stackDataDir, stackPort, startStack, type Stack } from './stack-support.js';

const dataDirs: string[] = [];
// A stack that did not stop by itself (the check missed the port) is stopped, not left running.
const stacks: Stack[] = [];
afterAll(async () => {
  await Promise.all(stacks.map((stack) => stack.stop()));
  await Promise.all(dataDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

function hold(port: number): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const server = net.createServer((socket) => socket.destroy());
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

interface Case {
  name: string;
  held(ports: { gateway: number; postgres: number; redis: number }): number;
  message(port: number): string;
}

const CASES: Case[] = [
  { name: 'the embedded PostgreSQL', held: (p) => p.postgres, message: (port) => `port ${port} is in use; set EMBEDDED_PG_PORT to another` },
  { name: "the stack's redis-server", held: (p) => p.redis, message: (port) => `port ${port} is in use; set EMBEDDED_REDIS_PORT to another` },
  { name: 'the gateway', held: (p) => p.gateway, message: (port) => `port ${port} is in use; set PORT to another` },
  {
    name: 'the partner API',
    held: (p) => p.gateway + 1,
    message: (port) => `port ${port} is in use; set PORT to another (this port is PORT + 1, the partner API's)`,
  },
  {
    name: 'the usage API',
    held: (p) => p.gateway + 2,
    message: (port) => `port ${port} is in use; set PORT to another (this port is PORT + 2, the usage API's)`,
  },
  {
    name: 'the operator API',
    held: (p) => p.gateway + 3,
    message: (port) => `port ${port} is in use; set PORT to another (this port is PORT + 3, the operator API's)`,
  },
];

describe('npm start with a port in use', () => {
  for (const testCase of CASES) {
    it(`${testCase.name}: names the port and its variable, and exits 1 before starting anything`, async () => {
      const ports = { gateway: await stackPort(), postgres: await quietPort(), redis: await quietPort() };
      const held = testCase.held(ports);
      const server = await hold(held);
      const dataDir = await stackDataDir();
      dataDirs.push(dataDir);
      try {
        const stack = startStack(dataDir, {
          DATABASE_URL: undefined,
          REDIS_URL: undefined,
          QUEUE_PREFIX: undefined,
          PORT: String(ports.gateway),
          EMBEDDED_PG_PORT: String(ports.postgres),
          EMBEDDED_REDIS_PORT: String(ports.redis),
        });
        stacks.push(stack);
        const [code] = await stack.exited;
        expect(code, stack.output()).toBe(1);
        expect(stack.output().split('\n')).toContain(`[start] ${testCase.message(held)}`);
        expect(stack.output()).not.toContain('starting the embedded PostgreSQL');
        expect(stack.output()).not.toContain('keeps failing');
      } finally {
        server.close();
      }
    });
  }
});

describe('npm start without redis-server', () => {
  it('says to install it or set REDIS_URL, and exits 1 before starting anything', async () => {
    const dataDir = await stackDataDir();
    dataDirs.push(dataDir);
    const stack = startStack(dataDir, {
      DATABASE_URL: undefined,
      REDIS_URL: undefined,
      QUEUE_PREFIX: undefined,
      // Nothing on PATH (the stack runs Node by its own path): no redis-server.
      PATH: dataDir,
      PORT: String(await stackPort()),
      EMBEDDED_PG_PORT: String(await quietPort()),
      EMBEDDED_REDIS_PORT: String(await quietPort()),
    });
    stacks.push(stack);
    const [code] = await stack.exited;
    expect(code, stack.output()).toBe(1);
    expect(stack.output().split('\n')).toContain(
      '[start] redis-server is not installed: the stack runs one of its own beside its own PostgreSQL. Install it (apt-get install redis-server), or set REDIS_URL to a Redis to use.',
    );
    expect(stack.output()).not.toContain('starting the embedded PostgreSQL');
  });
});
