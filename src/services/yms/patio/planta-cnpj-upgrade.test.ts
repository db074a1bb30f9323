import { expect } from 'vitest';
import { itUpgrades, MIGRATIONS_FOLDER, uuidNumbered as V } from '../../../../test/migrations.ts';

// The upgrade that made a plant's CNPJ unique in its tenant (drizzle/0042_planta_cnpj_unico.sql),
// run on a database written before it, which holds what the old code let in: one CNPJ on three
// plants of a tenant (one of them inactive), a CNPJ stored with punctuation, an empty one, plants
// without one, and the same CNPJ in another tenant. The migration must not fail on them: the active,
// oldest plant keeps the CNPJ, the others lose it and say so in last_modified_by.

itUpgrades(
  '0042_planta_cnpj_unico',
  'keeps a repeated CNPJ on one plant, marks the others, and then refuses a repeat',
  async (db) => {
    const planta = (
      id: number,
      tenant: string,
      codigo: string,
      cnpj: string | null,
      ativo: boolean,
      dia: number,
    ) =>
      `('${V(id)}', '${tenant}', 'test', 'test', '${codigo}', 'Planta ${codigo}', ${cnpj === null ? 'null' : `'${cnpj}'`}, ${ativo}, '2026-01-0${dia}T12:00:00Z')`;
    await db.query(`
      insert into patio_planta (id, tenant, created_by, last_modified_by, codigo, nome, cnpj, ativo, created_date) values
        ${planta(1, 'acme', 'VELHA', '11.222.333/0001-81', false, 1)},
        ${planta(2, 'acme', 'SOR', '11222333000181', true, 2)},
        ${planta(3, 'acme', 'NOVA', '11222333000181', true, 3)},
        ${planta(4, 'acme', 'VAZIA', '', true, 4)},
        ${planta(5, 'acme', 'SEM1', null, true, 5)},
        ${planta(6, 'acme', 'SEM2', null, true, 6)},
        ${planta(7, 'acme', 'OUTRA', '11.444.777/0001-61', true, 7)},
        ${planta(8, 'globex', 'SOR', '11222333000181', true, 8)}`);
    await db.migrate(MIGRATIONS_FOLDER);
    const rows = await db.query<{
      tenant: string;
      codigo: string;
      cnpj: string | null;
      last_modified_by: string;
    }>('select tenant, codigo, cnpj, last_modified_by from patio_planta order by tenant, created_date');
    expect(rows).toEqual([
      {
        tenant: 'acme',
        codigo: 'VELHA',
        cnpj: null,
        last_modified_by:
          'migration:planta_cnpj_unico (CNPJ 11222333000181 repetido: ficou com a planta SOR)',
      },
      { tenant: 'acme', codigo: 'SOR', cnpj: '11222333000181', last_modified_by: 'test' },
      {
        tenant: 'acme',
        codigo: 'NOVA',
        cnpj: null,
        last_modified_by:
          'migration:planta_cnpj_unico (CNPJ 11222333000181 repetido: ficou com a planta SOR)',
      },
      { tenant: 'acme', codigo: 'VAZIA', cnpj: null, last_modified_by: 'test' },
      { tenant: 'acme', codigo: 'SEM1', cnpj: null, last_modified_by: 'test' },
      { tenant: 'acme', codigo: 'SEM2', cnpj: null, last_modified_by: 'test' },
      { tenant: 'acme', codigo: 'OUTRA', cnpj: '11444777000161', last_modified_by: 'test' },
      { tenant: 'globex', codigo: 'SOR', cnpj: '11222333000181', last_modified_by: 'test' },
    ]);
    // From now on the database refuses a repeat in the tenant, and takes another plant without one.
    await expect(
      db.query(`insert into patio_planta (tenant, created_by, last_modified_by, codigo, nome, cnpj)
        values ('acme', 'test', 'test', 'X', 'X', '11222333000181')`),
    ).rejects.toThrow(/patio_planta_cnpj/);
    await db.query(`insert into patio_planta (tenant, created_by, last_modified_by, codigo, nome)
      values ('acme', 'test', 'test', 'SEM3', 'Sem CNPJ')`);
  },
);
