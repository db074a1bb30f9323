#!/usr/bin/env node
// The `ponte` command. `serve` and `migrate` load the server from its TypeScript sources through
// tsx. Every other command is an HTTP client of the admin API, run as JavaScript compiled from
// src/cli/client.ts (dist/cli/client.js, built at `npm ci` and rebuilt here when a source is newer),
// so it answers in a Node start and one request rather than a TypeScript compile of the server.
const argv = process.argv.slice(2);

if (argv[0] === 'serve' || argv[0] === 'migrate') {
  await import('tsx');
  await import('../src/cli/main.ts');
} else {
  const { CLIENT, build, fresh } = await import('../scripts/build-cli.mjs');
  let client = CLIENT.href;
  if (!fresh()) {
    try {
      await build();
    } catch (err) {
      // A folder this user cannot write, or no esbuild: the sources still run, only slower.
      process.stderr.write(`ponte: cannot compile the CLI (${err.message}); running its sources\n`);
      await import('tsx');
      client = new URL('../src/cli/client.ts', import.meta.url).href;
    }
  }
  const { runClient } = await import(client);
  process.exitCode = await runClient(argv);
}
