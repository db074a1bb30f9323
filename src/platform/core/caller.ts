// Who calls an operation: the credential's kind and scope, and whom a partner's key acts for.

export type Scope = 'full' | 'public';

/**
 * Whom a `public` key (and the tokens it logs in) acts for: a record of a service, e.g. an external
 * user of yms/agenda. The platform only carries it; the service that owns the kind resolves it.
 */
export interface Subject {
  kind: string;
  id: string;
}

export interface Caller {
  kind: 'key' | 'token' | 'anonymous' | 'system';
  scope: Scope;
  /** Set when the key is bound to a subject (docs/authentication.md "Keys acting for someone"). */
  subject?: Subject;
  keyId?: string;
  sessionId?: string;
  /** The raw bearer token, so logout can end its own session. */
  token?: string;
}

export const SCOPES = ['full', 'public'] as const;

/** A key's subject as written: `<kind>:<id>`, the kind a word, the id without spaces. */
export const SUBJECT_PATTERN = '^[A-Za-z][A-Za-z0-9_]{0,39}:[^\\s:][^\\s]{0,159}$';
const SUBJECT = new RegExp(SUBJECT_PATTERN);

export function parseSubject(value: string | null | undefined): Subject | undefined {
  if (!value || !SUBJECT.test(value)) return undefined;
  const colon = value.indexOf(':');
  return { kind: value.slice(0, colon), id: value.slice(colon + 1) };
}
