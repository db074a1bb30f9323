import { uuid } from 'drizzle-orm/pg-core';
import { entityColumns } from '../../../../platform/core/entity.ts';

// yms/agenda's tables (docs/agenda.md "The record"), one file per record and what hangs on it. Property
// names are the JSON field names: the entity engine and the queries read them. References to patio's
// records (plant, vehicle, driver, composition, circuit) and to the appointment type are plain UUIDs:
// those records belong to other services, which check them (a foreign key across services would tie
// their tables together).

/** The id and audit columns every entity table of yms/agenda starts with. */
export function entity() {
  const { id: _id, ...audit } = entityColumns('uuid');
  return { id: uuid('id').notNull().defaultRandom(), ...audit };
}
