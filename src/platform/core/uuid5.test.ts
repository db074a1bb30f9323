import { describe, expect, it } from 'vitest';
import { uuid5 } from './uuid5.ts';

describe('uuid5', () => {
  it('gives the RFC 9562 version 5 UUID of a name', () => {
    expect(uuid5('www.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe(
      '2ed6657d-e927-568b-95e1-2665a8aea6a2',
    );
  });
  it('gives one id per name', () => {
    expect(uuid5('a/1')).toBe(uuid5('a/1'));
    expect(uuid5('a/1')).not.toBe(uuid5('a/2'));
    expect(uuid5('a/1')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
