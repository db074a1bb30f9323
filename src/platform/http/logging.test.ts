import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { testApp } from '../../../test/harness.ts';
import { allServices } from '../../services/index.ts';
import { loadConfig } from '../core/config.ts';
import { action, defineService } from '../core/registry.ts';
import { Type } from '../core/schema.ts';

// What the server logs (README "Running", LOG_LEVEL): unset (info), debug or trace, one line per
// request; LOG_LEVEL=warn or error, start-up and problems only. An internal error is logged with its
// request id either way.

const failing = defineService({
  domain: 'test',
  name: 'logging',
  version: '1.0.0',
  title: 'Logging',
  operations: {
    boom: action({
      input: Type.Object({}),
      output: Type.Object({}),
      handler: async () => {
        throw new Error('the handler broke');
      },
    }),
  },
});

/** An app logging at `info` into memory, with request lines as LOG_LEVEL=`level` decides. */
async function logged(level: string | undefined) {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const { logRequests } = loadConfig({ LOG_LEVEL: level }, { adminToken: 'unused' });
  const t = await testApp({
    services: [...allServices, failing],
    logger: { level: 'info', stream },
    config: { logRequests },
  });
  const key = await t.tenant(`log-${level || 'unset'}`);
  const health = await t.call(
    `log-${level || 'unset'}`,
    'hcm/platform_integration/queries/healthcheck',
    {},
    {
      auth: key,
    },
  );
  expect(health.statusCode).toBe(200);
  const boom = await t.call(`log-${level || 'unset'}`, 'test/logging/actions/boom', {}, { auth: key });
  expect(boom.statusCode).toBe(500);
  return { lines, requestId: boom.headers['x-request-id'] };
}

const perRequest = (lines: Array<Record<string, unknown>>) =>
  lines.filter((l) => l.msg === 'request' || l.msg === 'incoming request' || l.msg === 'request completed');

describe('LOG_LEVEL', () => {
  it('warn or error: no line per request, and an internal error logged with its request id', async () => {
    for (const level of ['warn', 'error']) {
      const { lines, requestId } = await logged(level);
      expect(perRequest(lines), level).toEqual([]);
      const error = lines.find((l) => l.reqId === requestId && l.level === 50);
      expect(error, JSON.stringify(lines)).toBeDefined();
      expect(JSON.stringify(error)).toContain('the handler broke');
    }
  });

  it('unset (info), debug or trace: one line per request, with its id, tenant, operation, status and time', async () => {
    for (const level of [undefined, '', 'info']) {
      const { lines, requestId } = await logged(level);
      const tenant = `log-${level || 'unset'}`;
      // The tenant's creation and its key (the admin API), the health check, the failing action: a
      // line each, the error's own line besides.
      expect(perRequest(lines).map((l) => l.op)).toEqual([
        '/admin/tenants',
        '/admin/tenants/:name/keys',
        'hcm/platform_integration/queries/healthcheck',
        'test/logging/actions/boom',
      ]);
      const mine = perRequest(lines).filter((l) => l.reqId === requestId);
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({
        msg: 'request',
        tenant,
        op: 'test/logging/actions/boom',
        method: 'POST',
        status: 500,
      });
      expect(typeof mine[0]?.ms).toBe('number');
      expect(JSON.stringify(mine[0])).not.toContain('authorization');
    }
    for (const level of ['debug', 'trace']) {
      expect(loadConfig({ LOG_LEVEL: level }, { adminToken: 'unused' }).logRequests).toBe(true);
    }
  });
});
