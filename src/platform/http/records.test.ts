import { describe, expect, it } from 'vitest';
import { Enum, Record, Type } from '../core/schema.ts';
import { inDialect, OPENAPI_SCHEMAS, Records, SWAGGER_DEFINITIONS } from './records.ts';

const Status = Record('status', Enum(['A', 'B'] as const, { description: 'state of a thing' }));

describe('Records', () => {
  it("describes a definition by the record's own description, whichever use comes first", () => {
    const records = new Records('#/definitions/');
    const readOnly = records.show(
      Type.Object({ status: { ...Status, description: 'read-only: its state' } }),
    );
    const filter = records.show(Type.Object({ status: Type.Array(Status) }));
    expect(records.definitions()).toEqual({
      status: { type: 'string', enum: ['A', 'B'], title: 'status', description: 'state of a thing' },
    });
    expect(readOnly).toMatchObject({
      properties: {
        status: { allOf: [{ $ref: '#/definitions/status' }], description: 'read-only: its state' },
      },
    });
    expect(filter).toMatchObject({ properties: { status: { items: { $ref: '#/definitions/status' } } } });
  });

  it('describes a record declared without a description by its first use', () => {
    const records = new Records('#/definitions/');
    const Plain = Record('plain', Enum(['X']));
    records.show(Type.Object({ a: { ...Plain, description: 'the first use' }, b: Plain }));
    expect(records.definitions().plain).toEqual({
      type: 'string',
      enum: ['X'],
      title: 'plain',
      description: 'the first use',
    });
  });

  it('leaves the validation-only marker out of query parameters', () => {
    expect(inDialect(Type.Object({ status: Status }))).toEqual({
      type: 'object',
      properties: {
        status: { type: 'string', enum: ['A', 'B'], title: 'status', description: 'state of a thing' },
      },
      required: ['status'],
    });
  });

  it('writes a discriminator in each dialect; OpenAPI 3 maps it to the records that extend the base', () => {
    const Base = Record(
      'base',
      Type.Object({ kind: Type.String(), a: Type.String() }, { discriminator: { propertyName: 'kind' } }),
    );
    const Sub = Record('sub', Type.Intersect([Base, Type.Object({ b: Type.String() })]));
    const shown = (prefix: typeof SWAGGER_DEFINITIONS | typeof OPENAPI_SCHEMAS) => {
      const records = new Records(prefix);
      records.show(Sub);
      return records.definitions();
    };
    const swagger = shown(SWAGGER_DEFINITIONS);
    expect(swagger.base!.discriminator).toBe('kind');
    expect(swagger.sub!.allOf).toEqual([
      { $ref: '#/definitions/base' },
      { type: 'object', properties: { b: { type: 'string' } }, required: ['b'] },
    ]);
    const openapi = shown(OPENAPI_SCHEMAS);
    expect(openapi.base!.discriminator).toEqual({
      propertyName: 'kind',
      mapping: { sub: '#/components/schemas/sub' },
    });
    expect((openapi.sub!.allOf as unknown[])[0]).toEqual({ $ref: '#/components/schemas/base' });
  });
});
