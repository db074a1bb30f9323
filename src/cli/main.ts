import { runClient } from './client.ts';

// The `ponte` command from its TypeScript sources. `serve` and `migrate` load the server (its
// modules are imported only then); every other command is the admin API's client (client.ts), which
// bin/ponte.js runs compiled rather than through here.

async function main(argv: string[]): Promise<void> {
  switch (argv[0]) {
    case 'serve': {
      const [{ startServer }, { allServices }] = await Promise.all([
        import('../platform/server.ts'),
        import('../services/index.ts'),
      ]);
      await startServer({ services: allServices });
      return;
    }
    case 'migrate': {
      const [{ loadConfig }, { Database }, { join }] = await Promise.all([
        import('../platform/core/config.ts'),
        import('../platform/core/db/database.ts'),
        import('node:path'),
      ]);
      const config = loadConfig();
      const db = await Database.open({
        databaseUrl: config.databaseUrl,
        dataDir: join(config.dataDir, 'pglite'),
      });
      await db.migrate();
      await db.close();
      process.stdout.write(
        `migrations applied to ${config.databaseUrl ? 'the PostgreSQL of DATABASE_URL' : join(config.dataDir, 'pglite')}\n`,
      );
      return;
    }
    default:
      process.exitCode = await runClient(argv);
  }
}

main(process.argv.slice(2)).catch((err: Error) => {
  process.stderr.write(`ponte: ${err.message}\n`);
  process.exit(1);
});
