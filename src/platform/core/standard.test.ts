import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../../test/harness.ts';
import { allServices } from '../../services/index.ts';
import { defineService } from './registry.ts';
import { standardOperations } from './standard.ts';

// The standard operations in the variants the spec's services declare (spec 001 §2.1).

const arrayShape = defineService({
  domain: 'test',
  name: 'comum',
  version: '2.1.8',
  title: 'checkData shape',
  dependencies: ['hcm/platform_integration'],
  operations: standardOperations({
    health: 'healthCheck',
    healthShape: 'checkData',
    dependenciesVisibility: 'PUBLIC',
  }),
});

let t: TestApp;
let key: string;
let publicKey: string;

beforeAll(async () => {
  t = await testApp({ services: [...allServices, arrayShape] });
  key = await t.tenant('acme');
  publicKey = (await t.key('acme', 'public')).apiKey;
});

describe('healthcheck', () => {
  it('answers an array of checkData under the name healthCheck', async () => {
    const res = await t.call('acme', 'test/comum/queries/healthCheck', undefined, {
      auth: key,
      method: 'GET',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'UP', checks: [{ name: 'database', status: 'UP' }] });
  });

  it('reports DOWN, naming the failing check, when the database does not answer', async () => {
    const ping = t.db.ping.bind(t.db);
    t.db.ping = async () => {
      throw new Error('connection refused');
    };
    try {
      const array = await t.call('acme', 'test/comum/queries/healthCheck', {}, { auth: key });
      expect(array.json()).toEqual({ status: 'DOWN', checks: [{ name: 'database', status: 'DOWN' }] });
      const single = await t.call('acme', 'hcm/platform_integration/queries/healthcheck', {}, { auth: key });
      expect(single.json()).toEqual({ status: 'DOWN', checks: { name: 'database', status: 'DOWN' } });
      const ready = await t.app.inject({ method: 'GET', url: '/ready' });
      expect(ready.statusCode).toBe(503);
    } finally {
      t.db.ping = ping;
    }
    expect((await t.app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200);
  });
});

describe('getDependencies', () => {
  it('lists the declared dependencies with their versions, with the declared visibility', async () => {
    const res = await t.call('acme', 'test/comum/queries/getDependencies', {}, { auth: publicKey });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      dependencies: [{ domain: 'hcm', service: 'platform_integration', version: '2.0.6' }],
    });
    const privateOne = await t.call(
      'acme',
      'hcm/platform_integration/queries/getDependencies',
      {},
      { auth: publicKey },
    );
    expect(privateOne.statusCode).toBe(403);
  });
});
