import { readFileSync } from 'node:fs';
import { type SQL, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { openTestDb } from '../../../../test/harness.ts';
import { agenda } from '../../../services/yms/agenda/tables/agendas.ts';
import { motorista } from '../../../services/yms/patio/tables/veiculos.ts';
import { type Database, rowsOf } from './database.ts';
import { containsPattern, containsText, FOLD_FUNCTION, foldText, searchColumnHas } from './search.ts';

// Searches are case- and accent-insensitive on both engines, through ponte_fold (migration 0041),
// and the trigram indexes still serve them.

let db: Database;
beforeAll(async () => {
  db = await openTestDb();
});

const one = async <T>(query: SQL): Promise<T> => {
  const [row] = await db.system(async (tx) => rowsOf<{ v: T }>(await tx.execute(query)));
  return (row as { v: T }).v;
};

describe('ponte_fold', () => {
  it('is created by migration 0041 as search.ts declares it', () => {
    const migration = readFileSync(
      new URL('../../../../drizzle/0041_search_folds_accents.sql', import.meta.url),
      'utf8',
    );
    expect(migration).toContain(FOLD_FUNCTION);
  });

  it('folds in the database as foldText does in JavaScript, letter by letter', async () => {
    const latin = 'áàâãäåçéèêëíìîïñóòôõöøúùûüýÿßæœłđð';
    const letters = [...`${latin}${latin.toUpperCase()}abcxyzABCXYZ019`];
    // One letter to a word: nothing folds into a space.
    const folded = (await one<string>(sql`select ponte_fold(${letters.join(' ')}) as v`)).split(' ');
    expect(Object.fromEntries(letters.map((l, i) => [l, folded[i]]))).toEqual(
      Object.fromEntries(letters.map((l) => [l, foldText(l)])),
    );
    expect(foldText('São João, AÇÚCAR Ñandú Straße')).toBe('sao joao, acucar nandu strasse');
    const text = 'Paulínia ÉGUA ação 100% a_b \\ Conceição';
    expect(await one<string>(sql`select ponte_fold(${text}) as v`)).toBe(foldText(text));
  });
});

describe('containsText', () => {
  const cases: Array<[string, string, boolean]> = [
    ['João da Silva', 'joao', true],
    ['JOÃO', 'ão', true],
    ['joao', 'JOÃO', true],
    ['Açúcar Cristal', 'acucar', true],
    ['Usina Paulínia', 'PAULINIA', true],
    ['Conceição', 'cao', true],
    ['Joana', 'joao', false],
    // wildcards typed by a user stay literal
    ['100% algodão', '0%', true],
    ['1000 algodão', '0%', false],
    ['a_b', 'a_b', true],
    ['axb', 'a_b', false],
    ['C:\\temp', ':\\t', true],
  ];
  it.each(cases)('%s containing %s: %s', async (value, text, expected) => {
    expect(await one<boolean>(sql`select ${containsText(sql`${value}::text`, text)} as v`)).toBe(expected);
  });
});

describe('the trigram indexes serve the folded searches', () => {
  /** The plan of a query, with sequential scans priced out so that any usable index is taken. */
  const plan = (query: SQL) =>
    db.system(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      const rows = rowsOf<Record<string, string>>(await tx.execute(sql`explain ${query}`));
      return rows.map((r) => Object.values(r)[0]).join('\n');
    });

  it('a column with a trigram index', async () => {
    const query = sql`select id from ${motorista} where ${containsText(motorista.nome, 'joao')}`;
    expect(await plan(query)).toContain('patio_motorista_nome_trgm');
  });

  it('a stored search column', async () => {
    const query = sql`select id from ${agenda} where ${searchColumnHas(agenda.busca, containsPattern('acucar'))}`;
    expect(await plan(query)).toContain('agenda_busca_trgm');
  });
});
