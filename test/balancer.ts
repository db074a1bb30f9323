import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { freePort, sleep, tempDir } from './processes.ts';

// A load balancer in front of test servers, as a cluster of Ponte nodes is deployed
// (docs/deploy.md): Debian's HAProxy, round-robin over the nodes, checking each node's /ready every
// 500 ms, and sending a request whose connection is refused to another node. Server-Sent Events
// pass through (a long tunnel timeout). `.ci/run` installs HAProxy when it is missing.

export const HAPROXY = '/usr/sbin/haproxy';

export interface Balancer {
  url: string;
  stop(): Promise<void>;
}

export async function balancer(backends: string[], port?: number): Promise<Balancer> {
  if (!existsSync(HAPROXY))
    throw new Error(`${HAPROXY} is missing: apt-get install -y haproxy (.ci/run does)`);
  const listen = port ?? (await freePort());
  const dir = tempDir('ponte-haproxy-');
  const config = join(dir, 'haproxy.cfg');
  writeFileSync(
    config,
    [
      'global',
      '  maxconn 2000',
      'defaults',
      '  mode http',
      '  timeout connect 2s',
      '  timeout client 60s',
      '  timeout server 60s',
      '  timeout tunnel 1h',
      '  retries 3',
      '  option redispatch',
      '  retry-on conn-failure empty-response response-timeout',
      'frontend ponte',
      `  bind 127.0.0.1:${listen}`,
      '  default_backend nodes',
      'backend nodes',
      '  balance roundrobin',
      '  option httpchk GET /ready',
      '  default-server inter 500ms fall 1 rise 2',
      ...backends.map((base, i) => `  server node${i + 1} ${new URL(base).host} check`),
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(HAPROXY, ['-f', config, '-db'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (out += c));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  afterAll(stop);
  const url = `http://127.0.0.1:${listen}`;
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`haproxy exited: ${out}`);
    try {
      if ((await fetch(`${url}/ready`)).status === 200) return { url, stop };
    } catch {
      // not listening yet
    }
    await sleep(50);
  }
  throw new Error(`haproxy did not answer: ${out}`);
}
