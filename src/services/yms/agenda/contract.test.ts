import { describe, expect, it } from 'vitest';
import { Agenda } from './contract.ts';
import { agenda } from './entities.ts';

// What yms/agenda publishes to other services (contract.ts) is what its own entity shows.

describe("the agenda record's schema", () => {
  it("is the entity's output", () => {
    expect(JSON.parse(JSON.stringify(Agenda))).toEqual(JSON.parse(JSON.stringify(agenda.schema)));
  });
});
