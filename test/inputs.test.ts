import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusal } from '../src/platform/core/entity.ts';
import { REASON_STATUS, type Reason } from '../src/platform/core/errors.ts';
import { allServices } from '../src/services/index.ts';
import { type TestApp, tableCounts, testApp } from './harness.ts';
import { type Probe, pathOf, probes, targets } from './hostile.ts';

// Issue 10, point 1, generated from the declarations of every service: no input gives a 5xx, and
// every error is exactly the genericError body. Every operation and every entity route gets the
// classes of hostile input of hostile.ts (NUL and lone surrogates in each text field, parameter and
// filter; years 0 and 10000 in each date; integers beyond int64 and 1e400; null, array and scalar
// bodies; bad URL encoding, over-long ids, wrong content type and encoding); each must be a 400
// naming the field it broke, and none may change the database. A service added later gets them.

let t: TestApp;
let key: string;
let before: Record<string, number>;
const stats = { requests: 0, operations: 0, entityRoutes: 0, ms: 0 };

beforeAll(async () => {
  t = await testApp({ config: { operatorTenant: 'ops' } });
  key = await t.tenant('ops');
  before = await tableCounts(t.db);
});

afterAll(() => {
  console.log(
    `inputs: ${stats.requests} requests over ${stats.operations} operation routes and ${stats.entityRoutes} entity routes in ${Math.round(stats.ms)} ms`,
  );
});

function send(probe: Probe): Promise<LightMyRequestResponse> {
  const { target } = probe;
  const query = probe.query ?? '';
  return t.app.inject({
    method: target.method,
    url: `/t/ops/bridge/1.0/rest/${probe.path ?? pathOf(target)}${query ? `?${query}` : ''}`,
    headers: {
      authorization: key,
      ...(probe.payload === undefined ? {} : { 'content-type': 'application/json' }),
      ...probe.headers,
    },
    ...(probe.payload === undefined ? {} : { payload: probe.payload }),
  });
}

/** What is wrong with the answer to a probe: it must be a 400 genericError naming its field. */
function problems(probe: Probe, res: LightMyRequestResponse): string[] {
  const out: string[] = [];
  if (res.statusCode >= 500) out.push(`answered ${res.statusCode}`);
  else if (res.statusCode !== 400) out.push(`answered ${res.statusCode}, not 400`);
  if (!/^application\/json/.test(String(res.headers['content-type']))) out.push('not application/json');
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(res.body);
  } catch {
    out.push('no JSON body');
  }
  if (Object.keys(body).sort().join() !== 'message,reason')
    out.push(`not a genericError: ${res.body.slice(0, 200)}`);
  if (typeof body.message !== 'string' || !((body.reason as string) in REASON_STATUS))
    out.push('bad message or reason');
  else if (REASON_STATUS[body.reason as Reason] !== res.statusCode)
    out.push(`status ${res.statusCode} for ${body.reason}`);
  if (probe.field && !String(body.message).includes(`'${probe.field}'`))
    out.push(`does not name '${probe.field}': ${String(body.message).slice(0, 200)}`);
  return out;
}

describe.each(allServices.map((s) => [s.id, s] as const))('%s', (_id, service) => {
  it('refuses every hostile input of every route with a 400 genericError naming the field', async () => {
    const failures: string[] = [];
    const started = performance.now();
    for (const target of targets(service)) {
      if (target.template.includes('/entities/')) stats.entityRoutes++;
      else stats.operations++;
      for (const probe of probes(target)) {
        stats.requests++;
        const res = await send(probe);
        for (const problem of problems(probe, res))
          failures.push(`${target.method} ${target.template} ${probe.label}: ${problem}`);
      }
    }
    stats.ms += performance.now() - started;
    expect(failures.slice(0, 40), `${failures.length} failures`).toEqual([]);
  });
});

/** Every form of the filter language on one field, text literals included: each a 200 or a 400. */
const filterForms = (f: string) => [
  `filter=${f} eq 'x'`,
  `filter=${f} ne 'x'`,
  `filter=${f} gt 'x'`,
  `filter=containing(${f}, 'x')`,
  `filter=lower(${f}) eq 'x'`,
  `filter=${f} eq 1`,
  `filter=${f} eq true`,
  `filter=${f} is not null`,
  `orderby=${f} desc`,
];

describe('the filter language', () => {
  it('answers every form on every field of every entity list with 200 or a 400 genericError', async () => {
    const failures: string[] = [];
    let sent = 0;
    for (const service of allServices)
      for (const target of targets(service)) {
        // A child's list answers 404 first for the made-up parent; its fields are its entity's own list's.
        if (!target.entity || target.method !== 'GET' || target.template.includes('{')) continue;
        for (const field of Object.keys(target.entity.filterFields))
          for (const form of filterForms(field)) {
            const [key, expression] = form.split(/=(.*)/s) as [string, string];
            const probe = { target, label: form, query: `${key}=${encodeURIComponent(expression)}` };
            const res = await send(probe);
            sent++;
            if (res.statusCode !== 200)
              for (const problem of problems(probe, res))
                failures.push(`${target.template} ${form}: ${problem} ${res.body.slice(0, 160)}`);
          }
      }
    expect(sent).toBeGreaterThan(1000);
    expect(failures.slice(0, 40), `${failures.length} failures`).toEqual([]);
  });
});

describe('writes an entity refuses', () => {
  it('answer 405 with Allow and why, and are not documented', async () => {
    const failures: string[] = [];
    let sent = 0;
    for (const service of allServices)
      for (const target of targets(service)) {
        const entity = target.entity ?? undefined;
        if (!entity || target.method !== 'GET' || target.template.includes('{parentId}')) continue;
        // The list's entity and URL: every write it refuses, at the list and at one record.
        for (const [method, url, write] of [
          ['POST', target.template, 'create'],
          ['POST', `${target.template}/bulk`, 'create'],
          ['PATCH', target.template, 'change'],
          ['PUT', `${target.template}/{id}`, 'change'],
          ['PATCH', `${target.template}/{id}`, 'change'],
          ['DELETE', `${target.template}/{id}`, 'change'],
        ] as const) {
          const why = refusal(entity, write);
          if (!why) continue;
          sent++;
          const res = await send({
            target: { ...target, method, template: url },
            label: `${method} refused`,
            payload: '{}',
          });
          const body = res.json() as { reason?: string; message?: string };
          if (res.statusCode !== 405 || body.reason !== 'BAD_REQUEST' || !body.message?.includes(why))
            failures.push(`${method} ${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
          const allow = String(res.headers.allow).split(', ');
          if (!allow.includes('GET') || allow.includes(method))
            failures.push(`${method} ${url}: Allow ${res.headers.allow}`);
        }
      }
    // erp_isl's read-only entities, cot_cotacao's quotations, yms/agenda's attachments (no POST).
    expect(sent).toBeGreaterThanOrEqual(50);
    expect(failures).toEqual([]);
  });
});

describe('coverage', () => {
  it('hits every route of every Swagger document, and nothing else', () => {
    const bridge = 'http://ponte.test/t/ops/bridge/1.0/';
    const documented = allServices.flatMap((service) => {
      const doc = t.platform.metadata(service.id, 'openapi', {
        baseUrl: 'http://ponte.test',
        tenant: 'ops',
      }) as {
        servers: Array<{ url: string }>;
        paths: Record<string, object>;
      };
      // An anonymous operation is documented at its anonymous address; the probes call it at /rest.
      return Object.entries(doc.paths).flatMap(([path, methods]) => {
        const address = `${doc.servers[0]!.url}${path}`
          .slice(bridge.length)
          .replace(/^(anonymous\/)?rest\//, '');
        return Object.keys(methods).map((m) => `${m.toUpperCase()} ${address}`);
      });
    });
    const generated = allServices.flatMap((s) => targets(s).map((x) => `${x.method} ${x.template}`));
    expect([...generated].sort()).toEqual([...documented].sort());
  });

  it('changed nothing in the database', async () => {
    expect(stats.requests).toBeGreaterThan(0);
    expect(await tableCounts(t.db)).toEqual(before);
  });
});
