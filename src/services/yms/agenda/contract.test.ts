import { getTableName } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { Agenda, TABELAS_AGENDA } from './contract.ts';
import { agenda } from './entities.ts';
import { agenda as agendaTabela } from './tables/agendas.ts';
import { tipoAgendamento } from './tables/tipos.ts';

// What yms/agenda publishes to other services (contract.ts) is what its own entity shows.

describe("the agenda record's schema", () => {
  it("is the entity's output", () => {
    expect(JSON.parse(JSON.stringify(Agenda))).toEqual(JSON.parse(JSON.stringify(agenda.schema)));
  });
});

describe('the tables a reader may join (TABELAS_AGENDA)', () => {
  it('are the names of the agenda and type tables', () => {
    expect(TABELAS_AGENDA).toEqual({
      agenda: getTableName(agendaTabela),
      tipoAgendamento: getTableName(tipoAgendamento),
    });
  });
});
