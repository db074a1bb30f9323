import { createHash } from 'node:crypto';

// Name-based UUIDs (RFC 9562 version 5, SHA-1): the same name gives the same id. Records keyed by
// an outside system's natural key (an ERP's order number) take the id of that key, so the record
// has one id wherever it is written: in each tenant, and again after it is sent anew.

/** The namespace of Ponte's names (a random UUID, fixed once). */
export const PONTE_NAMESPACE = 'b3c1f8de-5a0e-4c47-9a43-7f2d0f1c6e21';

export function uuid5(name: string, namespace = PONTE_NAMESPACE): string {
  const ns = Buffer.from(namespace.replace(/-/g, ''), 'hex');
  const bytes = createHash('sha1').update(ns).update(name, 'utf8').digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
