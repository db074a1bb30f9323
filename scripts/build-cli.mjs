// Compiles the `ponte` admin client (src/cli/client.ts and the little it imports) into one
// JavaScript file, dist/cli/client.js, so that bin/ponte.js runs it without a TypeScript loader: a
// tenant or key command then costs a Node start and one request. `npm ci` runs this (`prepare`);
// bin/ponte.js runs it again when the file is missing or older than one of its sources.
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ENTRY = 'src/cli/client.ts';
export const CLIENT = new URL('../dist/cli/client.js', import.meta.url);
/** The sources the file was built from (esbuild's metafile), for the freshness check. */
const INPUTS = new URL('../dist/cli/client.inputs.json', import.meta.url);

/** Whether dist/cli/client.js exists and is newer than every source it was built from. */
export function fresh() {
  try {
    const built = statSync(CLIENT).mtimeMs;
    const inputs = JSON.parse(readFileSync(INPUTS, 'utf8'));
    return inputs.every((file) => statSync(new URL(file, pathToFileURL(ROOT))).mtimeMs <= built);
  } catch {
    return false;
  }
}

/** Writes `content` to `url` through a rename, so a concurrent reader sees the old file or the new. */
function replace(url, content) {
  const temp = new URL(`${url.href}.${process.pid}.tmp`);
  writeFileSync(temp, content);
  renameSync(temp, url);
}

export async function build() {
  const { build: esbuild } = await import('esbuild');
  const result = await esbuild({
    absWorkingDir: ROOT,
    entryPoints: [ENTRY],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // The client must stay an HTTP client: a package it imported would be loaded at every call.
    packages: 'external',
    write: false,
    metafile: true,
    logLevel: 'warning',
    banner: { js: `// Built from ${ENTRY} by scripts/build-cli.mjs (npm ci, or bin/ponte.js); do not edit.` },
  });
  mkdirSync(new URL('.', CLIENT), { recursive: true });
  // The inputs first: a file newer than its list is never taken for fresh with an older list.
  replace(INPUTS, JSON.stringify([...Object.keys(result.metafile.inputs), 'scripts/build-cli.mjs']));
  replace(CLIENT, result.outputFiles[0].contents);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await build();
