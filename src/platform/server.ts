import { type App, type AppOptions, buildApp } from './app.ts';

/** Builds the app, bootstraps the first tenant on an empty database, and listens. */
export async function startServer(options: AppOptions = {}): Promise<App & { url: string }> {
  const built = await buildApp(options);
  const { app, platform } = built;
  const { host, port } = platform.config;
  const url = await app.listen({ host, port });
  await bootstrapDemo(built, url);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      app.log.info({ signal }, 'shutting down');
      app.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
  return { ...built, url };
}

/**
 * First start on an empty database: create the tenant `demo` with a full key and print, once, the
 * key and a ready curl line (the key is never shown again; `ponte key create demo` makes another).
 */
async function bootstrapDemo({ platform }: App, url: string): Promise<void> {
  if ((await platform.tenants.list()).length > 0) return;
  const tenant = await platform.tenants.create('demo');
  const key = await platform.credentials.createKey(tenant.name, 'full', 'created at first start');
  const call = `${url}/t/demo/bridge/1.0/rest/hcm/platform_integration/queries/healthcheck`;
  process.stdout.write(
    [
      '',
      'First start: created tenant "demo". Its API key (shown only this once):',
      `  ${key.apiKey}`,
      'Try it:',
      `  curl -s -X POST -H 'Authorization: ${key.apiKey}' -H 'Content-Type: application/json' -d '{}' ${call}`,
      `Docs: ${url}/docs    Admin token: ${platform.config.dataDir}/admin-token`,
      '',
    ].join('\n'),
  );
}
