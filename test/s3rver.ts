import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { S3Config } from '../src/platform/core/config.ts';

// An S3-compatible endpoint for the tests (docs/platform.md "Blobs"): s3rver, the only one these
// machines can run (an npm package; nothing is downloaded at run time), in a child process on a
// free port with a temporary folder. `stop()` ends it and removes the folder; call it from an
// afterAll of the test file (vitest runs no afterAll registered inside a beforeAll). A test run that
// dies leaves none behind: the child ends when its stdin, a pipe from this process, closes.

const MAIN = fileURLToPath(new URL('./s3rver-main.mjs', import.meta.url));

export interface S3rver {
  config: S3Config;
  stop(): Promise<void>;
}

export async function startS3rver(bucket = 'ponte-test'): Promise<S3rver> {
  const directory = mkdtempSync(join(tmpdir(), 'ponte-s3rver-'));
  const child = spawn(process.execPath, [MAIN, directory, bucket], { stdio: ['pipe', 'pipe', 'inherit'] });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(directory, { recursive: true, force: true });
  };
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (data: Buffer) => {
      out += data.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n')) resolve((JSON.parse(line!) as { port: number }).port);
    });
    child.once('exit', (code) => reject(new Error(`s3rver exited (${code}) before it listened`)));
  });
  const config: S3Config = {
    bucket,
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    // s3rver's own pair: it checks signatures against it.
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
    prefix: '',
  };
  return { config, stop };
}
