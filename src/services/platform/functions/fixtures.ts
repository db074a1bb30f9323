import type { TestApp } from '../../../../test/harness.ts';

// Test helpers of platform/functions: calls as one tenant's key, and functions made and uploaded.

export const FN = 'platform/functions';

export type Call = ReturnType<typeof functionsCall>;

/** Calls platform/functions (or, with a full address, any operation) as `tenant` with `auth`. */
export function functionsCall(t: TestApp, tenant: string, auth: string) {
  return (
    address: string,
    body?: unknown,
    options: { method?: 'GET' | 'PUT' | 'PATCH' | 'DELETE'; query?: Record<string, string> } = {},
  ) =>
    t.call(tenant, /^(queries|actions|entities)\//.test(address) ? `${FN}/${address}` : address, body, {
      auth,
      ...options,
    });
}

/** A function bound to `primitive` (`domain/service/name`), with `code` uploaded and the stage asked. */
export async function makeFunction(
  call: Call,
  name: string,
  primitive: string,
  code?: string,
  options: { stage?: 'DRAFT' | 'ACTIVE' | 'DISABLED'; timeoutMs?: number; memoryLimitMb?: number } = {},
) {
  const [domainName, serviceName, primitiveName] = primitive.split('/');
  const created = await call('entities/function', {
    name,
    domainName,
    serviceName,
    primitiveName,
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.memoryLimitMb ? { memoryLimitMb: options.memoryLimitMb } : {}),
  });
  if (created.statusCode !== 200 && created.statusCode !== 201) throw new Error(`function: ${created.body}`);
  const id = created.json().id as string;
  if (code !== undefined) {
    const up = await call('actions/uploadFunctionCode', { functionName: name, code });
    if (up.statusCode !== 200) throw new Error(`upload: ${up.body}`);
  }
  if (options.stage && options.stage !== 'DRAFT') {
    const res = await call(`entities/function/${id}`, { stage: options.stage }, { method: 'PATCH' });
    if (res.statusCode !== 200) throw new Error(`stage: ${res.body}`);
  }
  return id;
}
