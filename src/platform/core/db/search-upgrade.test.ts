import { expect } from 'vitest';
import { itUpgrades, MIGRATIONS_FOLDER, uuidNumbered as V } from '../../../../test/migrations.ts';

// The upgrade that made searches accent-insensitive (drizzle/0041_search_folds_accents.sql), run on
// a database written before it: agenda's stored search column is rebuilt folded for the rows already
// there, the search view is back over it, and the trigram indexes are on the folded text.

itUpgrades(
  '0041_search_folds_accents',
  'folds the agendas already stored; the indexes are on the folded text',
  async (db) => {
    await db.query(`
    insert into agenda (tenant, id, codigo, data_esperada, planta_id, tipo_agendamento_id, descricao,
                        chave_integracao, created_by, last_modified_by) values
      ('acme', '${V(1)}', 1, now(), '${V(8)}', '${V(9)}', 'Carga de AÇÚCAR', 'NF-Ê1', 'test', 'test'),
      ('acme', '${V(2)}', 2, now(), '${V(8)}', '${V(9)}', 'Milho', null, 'test', 'test')`);
    expect(await db.query(`select busca from agenda where id = '${V(1)}'`)).toEqual([
      { busca: 'carga de açúcar\x1fnf-ê1\x1f' },
    ]);
    await db.migrate(MIGRATIONS_FOLDER);
    expect(await db.query('select id, busca from agenda order by codigo')).toEqual([
      { id: V(1), busca: 'carga de acucar\x1fnf-e1\x1f' },
      { id: V(2), busca: 'milho\x1f\x1f' },
    ]);
    // The view the searches read is there again, over the rebuilt column, for the tenant in the setting.
    await db.query(`select set_config('ponte.tenant', 'acme', false)`);
    expect(await db.query(`select id from agenda_busca where busca like ponte_fold('%Açucar%')`)).toEqual([
      { id: V(1) },
    ]);
    const indexes = await db.query<{ indexdef: string }>(
      `select indexdef from pg_indexes where indexname in ('agenda_busca_trgm', 'patio_motorista_nome_trgm') order by indexname`,
    );
    expect(indexes.map((i) => i.indexdef)).toEqual([
      expect.stringMatching(/USING gin \(busca gin_trgm_ops\)/),
      expect.stringMatching(/USING gin \(ponte_fold\(nome\) gin_trgm_ops\)/),
    ]);
  },
);
