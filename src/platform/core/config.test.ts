import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

// The settings of a node's database connections (docs/deploy.md "Connections").

const config = (env: NodeJS.ProcessEnv) => loadConfig(env, { adminToken: 'unused' });

describe('database settings', () => {
  it('pool 10 connections per process unless DATABASE_POOL_SIZE says otherwise', () => {
    expect(config({}).databasePoolSize).toBe(10);
    expect(config({ DATABASE_POOL_SIZE: '4' }).databasePoolSize).toBe(4);
    expect(config({ DATABASE_POOL_SIZE: '0' }).databasePoolSize).toBe(1);
    expect(() => config({ DATABASE_POOL_SIZE: 'many' })).toThrow(
      /DATABASE_POOL_SIZE must be a non-negative integer/,
    );
  });

  it('run one process on the embedded database, and WORKERS (default the cores) on a server', () => {
    expect(config({ WORKERS: '4' }).workers).toBe(1);
    expect(config({ DATABASE_URL: 'postgres://db/ponte', WORKERS: '3' }).workers).toBe(3);
    expect(config({ DATABASE_URL: 'postgres://db/ponte' }).workers).toBeGreaterThanOrEqual(1);
  });
});
