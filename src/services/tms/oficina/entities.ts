import type { Ctx, EntityRow } from '../../../platform/core/declarations.ts';
import { defineEntity, importTargetOf } from '../../../platform/core/entity.ts';
import type { ImportTarget } from '../../../platform/core/import-target.ts';
import { DateTime, Double, Int64, Type } from '../../../platform/core/schema.ts';
import { E } from './errors.ts';
import { exists, itensNoSetor, REF, type Ref, removeItensDoVeiculo, veiculosNoCentro } from './refs.ts';
import {
  Cd,
  Flag,
  Placa,
  StatusOficina,
  StatusVeiculo,
  Str,
  Tempo,
  TipoStatusManutencao,
} from './schemas.ts';
import * as T from './tables.ts';

// The persistent entities of tms/oficina (spec 001 §2.9, routes of spec 000 §2.3), each keyed by
// its code (a duplicate is 409; imports upsert by it), with the audit fields of the engine. Hooks
// check what the schema cannot: a reference to a cost centre, branch, sector or vehicle that the
// tenant does not hold is 422; a cost centre or sector in use cannot be deleted (409); deleting a
// vehicle deletes its pending items, reviews and maintenances. Imports skip these checks, so a
// fleet's files may arrive in any order (the queries join by code and tolerate a missing one).

const opt = Type.Optional;

/** 422 for each reference of `next` (field → record) that changed and does not exist. */
function references(fields: Record<string, Ref>) {
  return async (ctx: Ctx, next: Record<string, unknown>, previous: EntityRow | undefined) => {
    for (const [field, ref] of Object.entries(fields)) {
      const code = next[field];
      if (code === undefined || code === null || code === previous?.[field]) continue;
      if (!(await exists(ctx, ref, code)))
        throw E.referenceNotFound({ record: ref.record, codigo: String(code), field });
    }
  };
}

export const filial = defineEntity({
  name: 'filial',
  description: "The fleet's branches",
  table: T.filial,
  idType: 'int64',
  naturalKey: ['cdEmpresa'],
  fields: Type.Object({ cdEmpresa: Cd('branch code'), dsEmpresa: opt(Str(100)) }),
});

export const centroCusto = defineEntity({
  name: 'centroCusto',
  description: 'Cost centres the vehicles belong to; inExibePainelOfi 1 shows one in visaoGeral',
  table: T.centroCusto,
  idType: 'int64',
  naturalKey: ['cdCentroCusto'],
  fields: Type.Object({
    cdCentroCusto: Cd(),
    dsCentroCusto: opt(Str(100)),
    inExibePainelOfi: opt(Flag('1: listed in visaoGeral (default 1)')),
  }),
  hooks: {
    beforeSave: async (_ctx, next) => {
      next.inExibePainelOfi ??= 1;
    },
    beforeDelete: async (ctx, row) => {
      const n = await veiculosNoCentro(ctx, Number(row.cdCentroCusto));
      if (n > 0)
        throw E.emUso({ record: 'centroCusto', codigo: String(row.cdCentroCusto), n, usados: 'vehicles' });
    },
  },
});

export const setor = defineEntity({
  name: 'setor',
  description: "The workshop's sectors (electrical, tyres, bodywork) its items are done in",
  table: T.setor,
  idType: 'int64',
  naturalKey: ['cdSetor'],
  fields: Type.Object({ cdSetor: Cd(), dsSetor: opt(Str(100)) }),
  hooks: {
    beforeDelete: async (ctx, row) => {
      const n = await itensNoSetor(ctx, Number(row.cdSetor));
      if (n > 0) throw E.emUso({ record: 'setor', codigo: String(row.cdSetor), n, usados: 'workshop items' });
    },
  },
});

export const veiculo = defineEntity({
  name: 'veiculo',
  description:
    "The fleet's vehicles; their pending items, reviews and maintenances are the pendencia, revisao and manutencao whose veiculo is the cdVeiculo",
  table: T.veiculo,
  idType: 'int64',
  naturalKey: ['cdVeiculo'],
  fields: Type.Object({
    cdVeiculo: Cd(),
    nrPlaca: opt(Placa()),
    centroCusto: opt(Cd('cost centre (centroCusto.cdCentroCusto)')),
    dsStatusOficina: opt(StatusOficina()),
    dsStatus: opt(StatusVeiculo()),
    cdEmpresa: opt(Cd('branch (filial.cdEmpresa)')),
    dsMovimentacao: opt(Str(200, 'last movement')),
    hrMovimentacao: opt(DateTime({ description: 'when the last movement happened' })),
    nrHodometro: opt(Double({ minimum: 0, description: 'odometer (km)' })),
  }),
  hooks: {
    beforeSave: async (ctx, next, previous) => {
      next.dsStatusOficina ??= 'RODANDO';
      next.dsStatus ??= 'ATIVO';
      await references({ centroCusto: REF.centroCusto, cdEmpresa: REF.filial })(ctx, next, previous);
    },
    beforeDelete: (ctx, row) => removeItensDoVeiculo(ctx, Number(row.cdVeiculo)),
  },
});

const itemRefs = references({ veiculo: REF.veiculo, setor: REF.setor, cdEmpresa: REF.filial });

export const pendencia = defineEntity({
  name: 'pendencia',
  description: "A vehicle's pending item, open since dtAbertura; closing it removes it",
  table: T.pendencia,
  idType: 'int64',
  naturalKey: ['cdPendenciaPk'],
  fields: Type.Object({
    cdPendenciaPk: Str(40, 'the pending item', 1),
    cdPendencia: opt(Cd()),
    cdEmpresa: opt(Cd()),
    dsPendencia: opt(Str(200)),
    veiculo: opt(Cd('the vehicle (veiculo.cdVeiculo)')),
    qtTempoPrevisto: opt(Tempo()),
    inPrioridade: opt(Int64({ minimum: 0, maximum: 99 })),
    inNotificacao: opt(Flag('1: notify')),
    dtAbertura: opt(DateTime({ description: 'opened at (default: now)' })),
    setor: opt(Cd('the sector (setor.cdSetor)')),
  }),
  hooks: {
    beforeSave: async (ctx, next, previous) => {
      next.dtAbertura ??= ctx.now().toISOString();
      await itemRefs(ctx, next, previous);
    },
  },
});

export const revisao = defineEntity({
  name: 'revisao',
  description: "A vehicle's review, due at dtPrevisao or at nrHodometro km, whichever comes first",
  table: T.revisao,
  idType: 'int64',
  naturalKey: ['cdRevisao'],
  fields: Type.Object({
    cdRevisao: Str(40, 'the review', 1),
    dsRevisao: opt(Str(200)),
    veiculo: opt(Cd('the vehicle (veiculo.cdVeiculo)')),
    qtTempoPrevisto: opt(Tempo()),
    qtKmAviso: opt(Int64({ minimum: 0, description: 'warn this many km before nrHodometro' })),
    nrDias: opt(Int64({ minimum: 0, description: 'warn this many days before dtPrevisao' })),
    inCondicao: opt(Int64({ minimum: 0 })),
    nrHodHor: opt(Double({ minimum: 0, description: 'hour meter' })),
    nrHodometro: opt(Double({ minimum: 0, description: 'odometer reading (km) it is due at' })),
    dtPrevisao: opt(DateTime({ description: 'date it is due at' })),
    cdEmpresa: opt(Cd()),
    setor: opt(Cd()),
  }),
  hooks: { beforeSave: itemRefs },
});

export const manutencao = defineEntity({
  name: 'manutencao',
  description: "A vehicle's maintenance and its work order; open until CONCLUIDA or CANCELADA",
  table: T.manutencao,
  idType: 'int64',
  naturalKey: ['cdManutencao'],
  fields: Type.Object({
    cdManutencao: Str(40, 'the maintenance', 1),
    dsManutencao: opt(Str(200)),
    veiculo: opt(Cd('the vehicle (veiculo.cdVeiculo)')),
    qtTempoPrevisto: opt(Double({ minimum: 0, description: 'planned hours' })),
    qtTempoRealizado: opt(Double({ minimum: 0, description: 'hours done' })),
    nrOs: opt(Cd('work order number')),
    cdEmpresa: opt(Cd()),
    cdPlanoServico: opt(Cd()),
    dtAberturaOs: opt(DateTime()),
    dtInicio: opt(DateTime()),
    inStatus: opt(TipoStatusManutencao()),
    setor: opt(Cd()),
  }),
  hooks: {
    beforeSave: async (ctx, next, previous) => {
      next.inStatus ??= 'ABERTA';
      await itemRefs(ctx, next, previous);
    },
  },
});

export const oficinaEntities = [filial, centroCusto, setor, veiculo, pendencia, revisao, manutencao];

/** import<X> of each entity: a plain upsert by its code (docs/oficina.md "Importing a fleet"). */
export const oficinaImports: Record<string, ImportTarget> = {
  Filial: importTargetOf(filial),
  CentroCusto: importTargetOf(centroCusto),
  Setor: importTargetOf(setor),
  Veiculo: importTargetOf(veiculo),
  Pendencia: importTargetOf(pendencia),
  Revisao: importTargetOf(revisao),
  Manutencao: importTargetOf(manutencao),
};
