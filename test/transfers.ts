import { expect } from 'vitest';
import type { TestApp } from './harness.ts';

// Files in and out of the platform, as a client does it: upload through a signed URL, run an
// import or an export of a service as its durable job, read the outcome (docs/imports.md,
// docs/exports.md). Shared by the tests of every service that imports or exports.

/** Uploads `content` through platform/imports' signed URL; answers the file's key (`arquivo`). */
export async function upload(
  t: TestApp,
  tenant: string,
  auth: string,
  fileName: string,
  content: string | Buffer,
) {
  const res = await t.call(tenant, 'platform/imports/actions/requestUploadUrl', { fileName }, { auth });
  expect(res.statusCode, res.body).toBe(200);
  const { arquivo, uploadUrl } = res.json();
  const url = new URL(uploadUrl);
  const put = await t.app.inject({ method: 'PUT', url: `${url.pathname}${url.search}`, payload: content });
  expect(put.statusCode, put.body).toBe(200);
  return arquivo as string;
}

/** Runs `<service>/actions/import<kind>` on an uploaded file, drains the jobs, reads status and errors. */
export async function importFile(
  t: TestApp,
  tenant: string,
  auth: string,
  address: string,
  config: Record<string, unknown>,
) {
  const res = await t.call(tenant, address, { config }, { auth });
  expect(res.statusCode, res.body).toBe(200);
  const { importJobId } = res.json();
  await t.platform.jobs.drain();
  const status = await t.call(tenant, 'platform/imports/queries/getImport', { importJobId }, { auth });
  const errors = await t.call(tenant, 'platform/imports/queries/listImportErrors', { importJobId }, { auth });
  return { importJobId, status: status.json(), errors: errors.json().errors as unknown[] };
}

/** Runs `<service>/actions/export<kind>`, drains the jobs, and downloads the finished file. */
export async function exportFile(
  t: TestApp,
  tenant: string,
  auth: string,
  address: string,
  config: Record<string, unknown> = {},
) {
  const res = await t.call(tenant, address, { config }, { auth });
  expect(res.statusCode, res.body).toBe(200);
  const { exportJobId } = res.json();
  await t.platform.jobs.drain();
  const status = (
    await t.call(tenant, 'platform/exports/queries/getExport', { exportJobId }, { auth })
  ).json();
  expect(status.state, JSON.stringify(status)).toBe('done');
  const url = new URL(status.downloadUrl);
  const file = await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
  expect(file.statusCode).toBe(200);
  return { exportJobId, status, text: file.body, contentType: String(file.headers['content-type']) };
}
