import { errors } from '../../../platform/core/errors.ts';

// Parsing of an integrationSaveBatch request (docs/platform_integration.md): `ids` names the
// entities of `jsonText` in order; each id gets a result, and only well-formed entities are saved.

export interface BatchEntity {
  id: string;
  data: Record<string, unknown>;
}

export interface BatchResult {
  id: string;
  success: boolean;
  errorMessage: string;
}

export const MAX_ID_LENGTH = 255;

/** `ids` is a JSON array of strings or a comma-separated list. */
export function parseIds(ids: string): string[] {
  const text = ids.trim();
  let list: unknown[];
  if (text.startsWith('[')) {
    try {
      list = JSON.parse(text);
    } catch (err) {
      throw errors.badRequest(`Invalid field 'ids': not a valid JSON array (${(err as Error).message})`);
    }
    if (!Array.isArray(list))
      throw errors.badRequest(`Invalid field 'ids': must be a JSON array or a comma-separated list`);
  } else {
    list = text.split(',');
  }
  const out = list.map((id) =>
    typeof id === 'number' ? String(id) : typeof id === 'string' ? id.trim() : '',
  );
  if (out.length === 0 || out.every((id) => id === ''))
    throw errors.badRequest(`Invalid field 'ids': names no identifier`);
  return out;
}

/** `jsonText` is a JSON array of objects, or one object when the batch has one id. */
export function parseEntities(jsonText: string): unknown[] {
  let value: unknown;
  try {
    value = JSON.parse(jsonText);
  } catch (err) {
    throw errors.badRequest(`Invalid field 'jsonText': not valid JSON (${(err as Error).message})`);
  }
  if (Array.isArray(value)) return value;
  if (value !== null && typeof value === 'object') return [value];
  throw errors.badRequest(`Invalid field 'jsonText': must be a JSON array of entities or one entity object`);
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** Why an identifier's entity cannot be saved, or undefined when it can. */
function problemOf(id: string, i: number, entity: unknown, seen: Set<string>): string | undefined {
  if (id === '') return `identifier at position ${i} of ids is empty`;
  if (id.length > MAX_ID_LENGTH) return `identifier has more than ${MAX_ID_LENGTH} characters`;
  if (seen.has(id)) return `identifier ${id} is repeated in the batch`;
  seen.add(id);
  if (entity === undefined) return `jsonText has no entity at position ${i} for identifier ${id}`;
  if (!isObject(entity)) return `entity at position ${i} is not a JSON object`;
  if (entity.id !== undefined && entity.id !== null && String(entity.id) !== id) {
    return `entity at position ${i} has id ${String(entity.id)}, which differs from identifier ${id}`;
  }
  return undefined;
}

/** Pairs ids with entities; returns the entities to save and a result for every id (and stray entity). */
export function planBatch(
  ids: string[],
  entities: unknown[],
): { save: BatchEntity[]; results: BatchResult[] } {
  const save: BatchEntity[] = [];
  const results: BatchResult[] = [];
  const seen = new Set<string>();
  for (const [i, id] of ids.entries()) {
    const errorMessage = problemOf(id, i, entities[i], seen);
    results.push({ id, success: errorMessage === undefined, errorMessage: errorMessage ?? '' });
    if (errorMessage === undefined) save.push({ id, data: entities[i] as Record<string, unknown> });
  }
  for (let i = ids.length; i < entities.length; i++) {
    const entity = entities[i];
    const id = isObject(entity) && entity.id != null ? String(entity.id) : '';
    results.push({
      id,
      success: false,
      errorMessage: `entity at position ${i} of jsonText has no identifier in ids`,
    });
  }
  return { save, results };
}
