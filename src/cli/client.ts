import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { adminTokenFile, serverLocation } from '../platform/core/config.ts';
import { PullError, pullFunction } from './functions.ts';

// The `ponte` commands that manage tenants and keys: an HTTP client of the admin API of a running
// server (docs/platform.md "Administration"), so they work the same on the embedded database and on
// PostgreSQL. It imports Node and the small config reader only: bin/ponte.js runs it compiled
// (dist/cli/client.js, scripts/build-cli.mjs), so a call costs a Node start and one request.

export const USAGE = `usage: ponte <command> [--json]
  serve                                   start the server (HOST, PORT, DATA_DIR, DATABASE_URL, LOG_LEVEL)
  migrate                                 apply the database migrations and exit
  tenant create <name> [--edition light] [--time-zone <zone>]
  tenant list
  key create <tenant> [--scope public] [--subject <kind>:<id>] [--description <text>]
  key list <tenant>
  key revoke <tenant> <accessKey>
  function pull <domain>/<service>/<primitive> --url <server> --tenant <name> [--out <file>]
                                          fetch a function's current code (API key in PONTE_API_KEY)
The tenant and key commands call the admin API of a running server at PONTE_URL (default
http://HOST:PORT, http://127.0.0.1:8080), with ADMIN_TOKEN or the admin-token file of DATA_DIR.
--json prints the server's answer as JSON instead of a sentence.`;

/** A failure the user can act on: printed as `ponte: <message>`, exit code 1 (2 for usage). */
class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

const usageError = (message: string) => new CliError(`${message}\n${USAGE}`, 2);

interface Server {
  base: string;
  /** Where the address came from, for the message when nothing answers there. */
  addressFrom: string;
  token: string | undefined;
  /** Where the token came from (or was looked for), for the message when the server refuses it. */
  tokenFrom: string;
}

function server(env: NodeJS.ProcessEnv): Server {
  const { host, port, dataDir } = serverLocation(env);
  const base = env.PONTE_URL
    ? env.PONTE_URL.replace(/\/+$/, '')
    : `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`;
  const addressFrom = env.PONTE_URL
    ? 'the address of PONTE_URL'
    : 'PONTE_URL is unset, so the address is made of HOST and PORT, or their defaults';
  if (env.ADMIN_TOKEN) return { base, addressFrom, token: env.ADMIN_TOKEN, tokenFrom: 'ADMIN_TOKEN' };
  const file = adminTokenFile(dataDir);
  try {
    return { base, addressFrom, token: readFileSync(file, 'utf8').trim(), tokenFrom: file };
  } catch {
    return {
      base,
      addressFrom,
      token: undefined,
      tokenFrom: `none: ADMIN_TOKEN is unset and ${file} is missing`,
    };
  }
}

/** Why fetch failed, in the words of the system (ECONNREFUSED, ENOTFOUND, a timeout). */
function cause(err: Error): string {
  if (err.name === 'TimeoutError') return 'no answer within 30 s';
  const why = err.cause as { code?: string; message?: string } | undefined;
  return why?.code ?? why?.message ?? err.message;
}

async function admin(env: NodeJS.ProcessEnv, method: string, path: string, body?: unknown): Promise<unknown> {
  const target = server(env);
  const url = `${target.base}/admin${path}`;
  const res = await fetch(url, {
    method,
    headers: {
      ...(target.token ? { authorization: `Bearer ${target.token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
    signal: AbortSignal.timeout(30_000),
  }).catch((err: Error) => {
    throw new CliError(
      `cannot reach the server at ${target.base} (${cause(err)}; ${target.addressFrom}).\n` +
        'Start it with `npm start` (or `npx ponte serve`), or point this command at the running one: ' +
        'PONTE_URL=http://<host>:<port>, or the PORT (and HOST) it was started with.',
    );
  });
  const text = await res.text();
  let json: { message?: string; reason?: string } = {};
  try {
    json = text ? JSON.parse(text) : {};
  } catch {
    throw new CliError(`${url} answered ${res.status} with something else than JSON: is it a Ponte server?`);
  }
  if (res.status === 401) {
    throw new CliError(
      `the server at ${target.base} refused the admin token (token from ${target.tokenFrom}).\n` +
        "Set ADMIN_TOKEN to the server's, or DATA_DIR to the data folder the server was started with.",
    );
  }
  if (!res.ok)
    throw new CliError(`the server answered ${res.status} ${json.reason ?? ''}: ${json.message ?? text}`);
  return json;
}

interface Tenant {
  name: string;
  edition: string;
  timeZone: string;
  licenseLocked: boolean;
}

interface Key {
  accessKey: string;
  scope: string;
  subject: string | null;
  description: string | null;
  createdAt: string;
  revokedAt: string | null;
}

/** What a command did: the server's answer (for --json) and a sentence for whoever typed it. */
interface Done {
  answer: unknown;
  text: string;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => r[i]!.length))) ?? [];
  return rows.map((r) => `  ${r.map((cell, i) => cell.padEnd(widths[i]!)).join('  ')}`.trimEnd()).join('\n');
}

const OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  scope: { type: 'string' },
  subject: { type: 'string' },
  edition: { type: 'string' },
  'time-zone': { type: 'string' },
  description: { type: 'string' },
  url: { type: 'string' },
  tenant: { type: 'string' },
  key: { type: 'string' },
  out: { type: 'string' },
} as const;

/**
 * `argv` with its positionals after `--`, in their order: a word of three characters or more that
 * begins with one `-` is a positional (an access key made before 27 November 2026 may begin with
 * `-`; no option here is written that way), not an unknown option. Options, with their values, and
 * `-h` stay in front, so parseArgs still refuses what it does not know.
 */
export function valuesLast(argv: string[]): string[] {
  const options: string[] = [];
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (word.startsWith('--') || (word.startsWith('-') && word.length === 2)) {
      options.push(word);
      const name = word.slice(2);
      const option = OPTIONS[name as keyof typeof OPTIONS];
      if (option?.type === 'string' && i + 1 < argv.length) options.push(argv[++i]!);
    } else positionals.push(word);
  }
  return [...options, '--', ...positionals];
}

async function command(
  argv: string[],
  env: NodeJS.ProcessEnv,
  out: NodeJS.WritableStream,
): Promise<Done | undefined> {
  const { positionals, values } = parseArgs({
    args: valuesLast(argv),
    allowPositionals: true,
    options: OPTIONS,
  });
  const [group, verb, ...rest] = positionals;
  if (values.help || group === 'help') return undefined;
  const need = (what: string, value: string | undefined): string => {
    if (!value) throw usageError(`${group} ${verb} needs ${what}`);
    return value;
  };
  switch (`${group ?? ''} ${verb ?? ''}`) {
    case 'tenant create': {
      const name = need('a tenant <name>', rest[0]);
      const tenant = (await admin(env, 'POST', '/tenants', {
        name,
        ...(values.edition ? { edition: values.edition } : {}),
        ...(values['time-zone'] ? { timeZone: values['time-zone'] } : {}),
      })) as Tenant;
      return {
        answer: tenant,
        text:
          `created tenant ${tenant.name} (edition ${tenant.edition}, time zone ${tenant.timeZone})\n` +
          `next: ponte key create ${tenant.name}`,
      };
    }
    case 'tenant list': {
      const answer = (await admin(env, 'GET', '/tenants')) as { tenants: Tenant[] };
      const rows = answer.tenants.map((t) => [
        t.name,
        t.edition,
        t.timeZone,
        t.licenseLocked ? 'licenses locked' : '',
      ]);
      return { answer, text: [`${plural(rows.length, 'tenant')}`, table(rows)].filter(Boolean).join('\n') };
    }
    case 'key create': {
      const tenant = need('a <tenant>', rest[0]);
      const scope = values.scope ?? 'full';
      const key = (await admin(env, 'POST', `/tenants/${encodeURIComponent(tenant)}/keys`, {
        scope,
        ...(values.subject ? { subject: values.subject } : {}),
        ...(values.description ? { description: values.description } : {}),
      })) as Key & { apiKey: string };
      return {
        answer: key,
        text: [
          `created a ${key.scope} key for tenant ${tenant}${key.subject ? `, acting for ${key.subject}` : ''}` +
            ` (accessKey ${key.accessKey}); its API key, shown only this once:`,
          `  ${key.apiKey}`,
          'send it as "Authorization: <API key>" or "Authorization: Bearer <API key>"',
        ].join('\n'),
      };
    }
    case 'key list': {
      const tenant = need('a <tenant>', rest[0]);
      const answer = (await admin(env, 'GET', `/tenants/${encodeURIComponent(tenant)}/keys`)) as {
        keys: Key[];
      };
      const revoked = answer.keys.filter((k) => k.revokedAt).length;
      const rows = answer.keys.map((k) => [
        k.accessKey,
        k.scope,
        `created ${k.createdAt}`,
        k.revokedAt ? `revoked ${k.revokedAt}` : 'active',
        [k.subject ? `for ${k.subject}` : '', k.description ?? ''].filter(Boolean).join(' '),
      ]);
      const head = `tenant ${tenant} has ${plural(answer.keys.length, 'key')}${revoked ? ` (${revoked} revoked)` : ''}`;
      return { answer, text: [head, table(rows)].filter(Boolean).join('\n') };
    }
    case 'key revoke': {
      const tenant = need('a <tenant> and an <accessKey>', rest[0]);
      const accessKey = need('the <accessKey> of the key (ponte key list <tenant> shows them)', rest[1]);
      const answer = await admin(
        env,
        'DELETE',
        `/tenants/${encodeURIComponent(tenant)}/keys/${encodeURIComponent(accessKey)}`,
      );
      return {
        answer: { ...(answer as object), tenant, accessKey, revoked: true },
        text: `revoked key ${accessKey} of tenant ${tenant}, and every session opened with it`,
      };
    }
    case 'function pull': {
      try {
        return await pullFunction(
          {
            primitive: rest[0],
            url: values.url ?? env.PONTE_URL,
            tenant: values.tenant,
            key: values.key ?? env.PONTE_API_KEY,
            out: values.out,
          },
          out,
        );
      } catch (err) {
        if (err instanceof PullError) throw new CliError(err.message);
        throw err;
      }
    }
    default:
      throw usageError(positionals.length ? `unknown command: ${positionals.join(' ')}` : 'no command given');
  }
}

/** Runs a tenant or key command (or prints the usage); answers the exit code. */
export async function runClient(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  out: NodeJS.WritableStream = process.stdout,
  err: NodeJS.WritableStream = process.stderr,
): Promise<number> {
  try {
    const done = await command(argv, env, out);
    if (!done) {
      out.write(`${USAGE}\n`);
      return 0;
    }
    if (argv.includes('--json')) out.write(`${JSON.stringify(done.answer, null, 2)}\n`);
    else if (done.text) out.write(`${done.text}\n`);
    return 0;
  } catch (e) {
    const error = e as Error & { code?: string };
    // parseArgs refuses an unknown option or a missing value with a TypeError of code ERR_PARSE_ARGS_*.
    const failure =
      error instanceof CliError
        ? error
        : error.code?.startsWith('ERR_PARSE_ARGS')
          ? usageError(error.message)
          : new CliError(error.message);
    err.write(`ponte: ${failure.message}\n`);
    return failure.exitCode;
  }
}
