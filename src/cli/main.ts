import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../platform/core/config.ts';
import { Database } from '../platform/core/db/database.ts';
import { startServer } from '../platform/server.ts';
import { allServices } from '../services/index.ts';

// The `ponte` command. Tenant and key commands go through the admin API of a running server
// (PONTE_URL, default http://127.0.0.1:8080), authenticated by ADMIN_TOKEN or the data folder's
// admin-token file, so they work the same on the embedded database and on PostgreSQL.

const USAGE = `usage: ponte <command>
  serve                                   start the server (HOST, PORT, DATA_DIR, DATABASE_URL)
  migrate                                 apply the database migrations and exit
  tenant create <name> [--edition light]  create a tenant
  tenant list                             list tenants
  key create <tenant> [--scope public] [--description text]
  key list <tenant>
  key revoke <tenant> <accessKey>`;

async function admin(method: string, path: string, body?: unknown): Promise<unknown> {
  const config = loadConfig();
  const base = process.env.PONTE_URL ?? `http://${config.host}:${config.port}`;
  const res = await fetch(`${base}/admin${path}`, {
    method,
    headers: {
      authorization: `Bearer ${config.adminToken}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  }).catch((err: Error) => {
    throw new Error(`cannot reach the server at ${base} (${err.message}); start it with \`npm start\``);
  });
  const text = await res.text();
  const json = text ? JSON.parse(text) : {};
  if (!res.ok) throw new Error(`${res.status} ${json.reason ?? ''}: ${json.message ?? text}`);
  return json;
}

async function main(argv: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      scope: { type: 'string' },
      edition: { type: 'string' },
      description: { type: 'string' },
    },
  });
  const [command, sub, ...rest] = positionals;
  const print = (value: unknown): void => {
    process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  };
  switch (`${command} ${command === 'serve' || command === 'migrate' ? '' : (sub ?? '')}`.trim()) {
    case 'serve':
      await startServer({ services: allServices });
      return;
    case 'migrate': {
      const config = loadConfig();
      const db = await Database.open({
        databaseUrl: config.databaseUrl,
        dataDir: join(config.dataDir, 'pglite'),
      });
      await db.migrate();
      await db.close();
      process.stdout.write('migrations applied\n');
      return;
    }
    case 'tenant create':
      return print(
        await admin('POST', '/tenants', {
          name: rest[0],
          ...(values.edition ? { edition: values.edition } : {}),
        }),
      );
    case 'tenant list':
      return print(await admin('GET', '/tenants'));
    case 'key create':
      return print(
        await admin('POST', `/tenants/${rest[0]}/keys`, {
          scope: values.scope ?? 'full',
          ...(values.description ? { description: values.description } : {}),
        }),
      );
    case 'key list':
      return print(await admin('GET', `/tenants/${rest[0]}/keys`));
    case 'key revoke':
      return print(await admin('DELETE', `/tenants/${rest[0]}/keys/${rest[1]}`));
    default:
      process.stderr.write(`${USAGE}\n`);
      process.exitCode = 2;
  }
}

main(process.argv.slice(2)).catch((err: Error) => {
  process.stderr.write(`ponte: ${err.message}\n`);
  process.exit(1);
});
