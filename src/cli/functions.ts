import { writeFile } from 'node:fs/promises';

// `ponte function pull`: fetches the current code of a tenant's function, as the command that
// platform/functions getFunctionImportCommand answers (docs/functions.md "Importing a function").
// It calls the bridge with the tenant's API key (PONTE_API_KEY, or --key): getFunction gives the
// signed, expiring link of the code, which it downloads and writes to --out (or prints).

export interface PullOptions {
  primitive: string | undefined;
  url: string | undefined;
  tenant: string | undefined;
  key: string | undefined;
  out: string | undefined;
}

export class PullError extends Error {}

export async function pullFunction(
  options: PullOptions,
  out: NodeJS.WritableStream,
): Promise<{ answer: unknown; text: string }> {
  const parts = options.primitive?.split('/') ?? [];
  if (parts.length !== 3 || parts.some((p) => !p)) {
    throw new PullError('function pull needs the primitive as <domain>/<service>/<primitive>');
  }
  const [domainName, serviceName, name] = parts as [string, string, string];
  if (!options.url) throw new PullError('function pull needs --url, the address of the server');
  if (!options.tenant) throw new PullError('function pull needs --tenant');
  if (!options.key) throw new PullError('function pull needs the API key in PONTE_API_KEY (or --key)');
  const base = options.url.replace(/\/+$/, '');
  const address = `${base}/t/${encodeURIComponent(options.tenant)}/bridge/1.0/rest/platform/functions/queries/getFunction`;
  const res = await fetch(address, {
    method: 'POST',
    headers: { authorization: options.key, 'content-type': 'application/json' },
    body: JSON.stringify({ name, domainName, serviceName }),
    signal: AbortSignal.timeout(30_000),
  }).catch((err: Error) => {
    throw new PullError(`cannot reach ${base}: ${err.message}`);
  });
  const fn = (await res.json().catch(() => ({}))) as {
    name?: string;
    currentVersion?: number;
    codeUrl?: string;
    message?: string;
  };
  if (!res.ok) throw new PullError(`the server answered ${res.status}: ${fn.message ?? ''}`);
  if (!fn.codeUrl) throw new PullError(`function ${fn.name} has no uploaded code yet`);
  const code = await fetch(fn.codeUrl, { signal: AbortSignal.timeout(30_000) });
  if (!code.ok) throw new PullError(`the code's link answered ${code.status}`);
  const text = await code.text();
  const answer = {
    function: fn.name,
    version: fn.currentVersion,
    bytes: Buffer.byteLength(text),
    out: options.out,
  };
  if (!options.out) {
    out.write(text);
    return { answer, text: '' };
  }
  await writeFile(options.out, text);
  return {
    answer,
    text: `wrote ${options.out}: function ${fn.name}, version ${fn.currentVersion} (${answer.bytes} bytes)`,
  };
}
