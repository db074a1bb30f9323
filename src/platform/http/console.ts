import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { errors } from '../core/errors.ts';
import { TENANT_NAME } from '../core/tenants.ts';

// The live console (docs/console.md): one static page per tenant, `/t/<tenant>/console`, with its
// scripts (ES modules) and style under `/console/`. The page holds no data and no secret: the operator types an
// API key, which the browser sends on every call and on the event stream, like any client.

const file = (name: string) => readFileSync(new URL(`./console/${name}`, import.meta.url), 'utf8');

/** The page's modules: console.js imports the others (docs/console.md). */
export const SCRIPTS = ['console.js', 'textos.js', 'dom.js', 'quadro.js', 'dia.js'];

/** Scripts only from this origin, calls only to it: the page cannot be made to load or send elsewhere. */
export const CONSOLE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export function registerConsole(app: FastifyInstance): void {
  const page = file('index.html');
  const assets: Record<string, { type: string; body: string }> = {
    'console.css': { type: 'text/css; charset=utf-8', body: file('console.css') },
  };
  for (const script of SCRIPTS)
    assets[script] = { type: 'text/javascript; charset=utf-8', body: file(script) };
  app.get('/t/:tenant/console', { schema: { hide: true } }, async (request, reply) => {
    // Any well-formed name gets the page, which holds nothing of a tenant: whether a tenant exists is
    // told to its credentials only (docs/platform.md "Tenants and credentials").
    const { tenant } = request.params as { tenant: string };
    if (!TENANT_NAME.test(tenant)) throw errors.notFound(`No tenant can be named ${tenant}`);
    return reply
      .header('content-security-policy', CONSOLE_CSP)
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(page);
  });
  // Browsers ask every origin for its icon: an empty answer, not a 404 in every page's console.
  app.get('/favicon.ico', { schema: { hide: true } }, async (_request, reply) => reply.code(204).send());
  app.get('/console/:asset', { schema: { hide: true } }, async (request, reply) => {
    const asset = assets[(request.params as { asset: string }).asset];
    if (!asset) throw errors.notFound('Not found');
    return reply.header('x-content-type-options', 'nosniff').type(asset.type).send(asset.body);
  });
}
