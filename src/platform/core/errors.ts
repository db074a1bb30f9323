// The error body of every failure (spec 000 §2.2 genericError) and the one reason-to-status table
// (DESIGN.md "The bridge contract"). Handlers throw ApiError; nothing else reaches a client.

export const REASON_STATUS = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  PAYMENT_REQUIRED: 402,
  FORBIDDEN: 403,
  OBJECT_NOT_FOUND: 404,
  REQUEST_TIMEOUT: 408,
  GONE: 410,
  UNPROCESSABLE: 422,
  INTERNAL_ERROR: 500,
  NOT_IMPLEMENTED: 501,
  SERVICE_UNAVAILABLE: 503,
  INSUFFICIENT_STORAGE: 507,
} as const;

export type Reason = keyof typeof REASON_STATUS;
export const REASONS = Object.keys(REASON_STATUS) as Reason[];

export interface GenericError {
  message: string;
  reason: Reason;
  /** Beside a message that clients compare (a 401's `Invalid Credentials`): how to do it right. */
  detail?: string;
}

/** What a 401 adds to its message: the body's `detail` and the `WWW-Authenticate` challenge. */
export interface CredentialsHelp {
  detail: string;
  challenge: string;
}

export class ApiError extends Error {
  readonly reason: Reason;
  readonly status: number;
  /** Program-readable code from a service's error catalogue (spec 000 §2.2 basicErrorPayload). */
  readonly code: string | undefined;
  /** A 401's help: its text goes in the body's `detail`, its challenge in `WWW-Authenticate`. */
  readonly help: CredentialsHelp | undefined;

  constructor(
    reason: Reason,
    message: string,
    options: { status?: number; code?: string; help?: CredentialsHelp } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.reason = reason;
    // A state conflict is 409 (DESIGN.md): the only status that is not derived from the reason.
    this.status = options.status ?? REASON_STATUS[reason];
    this.code = options.code;
    this.help = options.help;
  }

  toBody(): GenericError {
    const body: GenericError = { message: this.message, reason: this.reason };
    if (this.help) body.detail = this.help.detail;
    return body;
  }
}

/**
 * Thrown by a job that running again cannot help (its input file is gone, the request it carries
 * is refused): the queue marks the job failed at once, with this message as its last error, so the
 * job and the work it tracks (an import, an export) say the same (docs/platform.md "Durable jobs").
 */
export class JobFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JobFailed';
  }
}

export const INVALID_CREDENTIALS = 'Invalid Credentials';

/**
 * The help of every 401 of the bridge (docs/platform.md "Tenants and credentials"): how credentials
 * are sent, and what may have been wrong in general terms. One text whatever failed (no header, a
 * malformed, unknown, wrong, revoked or expired credential, another tenant's, an unknown tenant),
 * so that the answer never tells which: the tenant names, keys and tokens cannot be probed.
 */
export const BRIDGE_CREDENTIALS: CredentialsHelp = {
  detail:
    'Send an API key of the tenant of this address as "Authorization: <apiKey>" or ' +
    '"Authorization: Bearer <apiKey>", or a token that loginWithKey issued for it as ' +
    '"Authorization: Bearer <accessToken>". The credential was missing, malformed, unknown, ' +
    'expired or revoked, or belongs to another tenant.',
  challenge: 'Bearer realm="ponte"',
};

export const errors = {
  badRequest: (message: string) => new ApiError('BAD_REQUEST', message),
  /** 401 `Invalid Credentials` with `help`: the same answer whatever was wrong. */
  unauthorized: (help: CredentialsHelp = BRIDGE_CREDENTIALS) =>
    new ApiError('UNAUTHORIZED', INVALID_CREDENTIALS, { help }),
  paymentRequired: (message: string) => new ApiError('PAYMENT_REQUIRED', message),
  forbidden: (message: string) => new ApiError('FORBIDDEN', message),
  notFound: (message: string) => new ApiError('OBJECT_NOT_FOUND', message),
  unprocessable: (message: string) => new ApiError('UNPROCESSABLE', message),
  /** A state conflict (e.g. an agenda that is not startable): 409 with reason UNPROCESSABLE. */
  conflict: (message: string) => new ApiError('UNPROCESSABLE', message, { status: 409 }),
  /** A method the resource does not serve: 405 with reason BAD_REQUEST (the route sets `Allow`). */
  methodNotAllowed: (message: string) => new ApiError('BAD_REQUEST', message, { status: 405 }),
  internal: (message = 'Internal error') => new ApiError('INTERNAL_ERROR', message),
  unavailable: (message: string) => new ApiError('SERVICE_UNAVAILABLE', message),
};

/**
 * A service's error catalogue: every error it can raise is listed once with its code, reason and
 * message template; handlers throw by name (`throw E.tenantNotFound({ tenant })`).
 */
export function defineErrors<
  const C extends Record<string, { reason: Reason; message: string; status?: number }>,
>(catalogue: C): { [K in keyof C]: (values?: Record<string, string | number>) => ApiError } {
  const out = {} as Record<string, (values?: Record<string, string | number>) => ApiError>;
  for (const [code, entry] of Object.entries(catalogue)) {
    out[code] = (values = {}) =>
      new ApiError(
        entry.reason,
        entry.message.replace(/\{(\w+)\}/g, (_, k: string) => String(values[k] ?? `{${k}}`)),
        { code, ...(entry.status ? { status: entry.status } : {}) },
      );
  }
  return out as { [K in keyof C]: (values?: Record<string, string | number>) => ApiError };
}
