import type { TObject } from 'typebox';
import { cnpjValido, semPontuacao } from '../../../platform/core/cpf-cnpj.ts';
import type { ExportField } from '../../../platform/core/export-target.ts';
import { type ImportTarget, type Refusal, refuse } from '../../../platform/core/import-target.ts';
import { Type } from '../../../platform/core/schema.ts';
import { enderecoFields, normalizaEndereco, tipoVeiculoFields } from './cadastros.ts';
import { circuito as circuitoEntity, sequenciaCircuito as sequenciaEntity } from './circuitos.ts';
import { lugaresImpedidos } from './composicoes.ts';
import {
  area as areaEntity,
  normalizePlaca,
  planta as plantaEntity,
  vaga as vagaEntity,
  veiculo as veiculoEntity,
} from './entities.ts';
import { E } from './errors.ts';
import {
  Codigo,
  codigoDe,
  daPlanta,
  dasPlantas,
  key,
  plantaDe,
  type Row,
  semRegistro,
} from './importacoes-codigos.ts';
import { endereco, tipoVeiculo } from './tables/cadastros.ts';
import { circuito, sequenciaCircuito } from './tables/circuitos.ts';
import { area, planta, vaga } from './tables/plantas.ts';
import { veiculo } from './tables/veiculos.ts';

// The registers' imports and exports (spec 000 §4.3; docs/patio.md "Imports and exports"): Planta,
// Area, Vaga, Circuito, SequenciaCircuito, Veiculo, Endereco and TipoVeiculo go both ways with the
// same fields, a referenced record named by its code (importacoes-codigos.ts).

/** The entity's fields without `drop` (ids replaced by codes, read-only state). */
function fieldsOf(entity: { fields: TObject }, drop: string[]): Record<string, never> {
  const props = { ...(entity.fields.properties as Record<string, never>) };
  for (const name of drop) delete props[name];
  return props;
}

// --- registers: both ways ---------------------------------------------------------------------

interface Cadastro {
  table: ImportTarget['table'];
  row: TObject;
  naturalKey: string[];
  /** Export fields that are not columns of the table (referenced codes). */
  refs?: Record<string, ExportField>;
  prepare?: ImportTarget['prepare'];
  resolve?: ImportTarget['resolve'];
}

export const cadastros: Record<string, Cadastro> = {
  Planta: {
    table: planta,
    row: plantaEntity.fields,
    naturalKey: ['codigo'],
    prepare: (row) => ({
      ...row,
      cnpj: typeof row.cnpj === 'string' ? semPontuacao(row.cnpj) : row.cnpj,
      fusoHorario: row.fusoHorario ?? 'America/Sao_Paulo',
      ativo: row.ativo ?? true,
    }),
    resolve: async (_tx, rows) =>
      rows.map((row) => {
        // The entity's rules: the CNPJ's check digits (a file is new input: every CNPJ is checked).
        if (typeof row.cnpj === 'string' && !cnpjValido(row.cnpj))
          return refuse('cnpj', `cnpj ${row.cnpj} não é um CNPJ válido (dígitos verificadores)`);
        try {
          new Intl.DateTimeFormat('en', { timeZone: String(row.fusoHorario) });
          return row;
        } catch {
          return refuse('fusoHorario', `fusoHorario ${String(row.fusoHorario)} não é um fuso horário IANA`);
        }
      }),
  },
  Area: {
    table: area,
    row: Type.Object({ plantaCodigo: Codigo('plant'), ...fieldsOf(areaEntity, ['plantaId']) }),
    naturalKey: ['plantaId', 'codigo'],
    refs: { plantaCodigo: codigoDe(planta, area.plantaId) },
    prepare: (row) => ({ ...row, ativo: row.ativo ?? true }),
    resolve: daPlanta,
  },
  Vaga: {
    table: vaga,
    row: Type.Object({
      plantaCodigo: Codigo('plant'),
      areaCodigo: Codigo('area, in the plant'),
      ...fieldsOf(vagaEntity, ['areaId', 'ocupada', 'veiculoId', 'ocupadaEm']),
    }),
    naturalKey: ['areaId', 'rua', 'numero'],
    refs: { plantaCodigo: plantaDe(area, vaga.areaId), areaCodigo: codigoDe(area, vaga.areaId) },
    prepare: (row) => ({ ...row, ativo: row.ativo ?? true, bloqueio: row.bloqueio ?? false }),
    resolve: async (tx, rows, tenant) => {
      const ids = await dasPlantas(tx, tenant, area, rows);
      return rows.map((row): Row | Refusal => {
        const areaId = ids.get(key(row.plantaCodigo, row.areaCodigo));
        if (!areaId) return semRegistro('areaCodigo', 'área', row.plantaCodigo, row.areaCodigo);
        // docs/patio.md "The yard model": a blocked spot carries its reason; an unblocked one none.
        if (row.bloqueio && !row.motivoBloqueio)
          return refuse('motivoBloqueio', 'Informe motivoBloqueio ao bloquear a vaga');
        return { ...row, areaId, motivoBloqueio: row.bloqueio ? row.motivoBloqueio : null };
      });
    },
  },
  Circuito: {
    table: circuito,
    row: Type.Object({ plantaCodigo: Codigo('plant'), ...fieldsOf(circuitoEntity, ['plantaId']) }),
    naturalKey: ['plantaId', 'codigo'],
    refs: { plantaCodigo: codigoDe(planta, circuito.plantaId) },
    prepare: (row) => ({ ...row, ativo: row.ativo ?? true }),
    resolve: daPlanta,
  },
  SequenciaCircuito: {
    table: sequenciaCircuito,
    row: Type.Object({
      plantaCodigo: Codigo('plant of the circuit'),
      circuitoCodigo: Codigo('circuit, in the plant'),
      ...fieldsOf(sequenciaEntity, ['circuitoId', 'areaId', 'subCircuitoId']),
      areaCodigo: Codigo('area of the step, in the plant'),
      subCircuitoCodigo: Type.Optional(Codigo('circuit of the same plant the step branches into')),
    }),
    naturalKey: ['circuitoId', 'ordem'],
    refs: {
      plantaCodigo: plantaDe(circuito, sequenciaCircuito.circuitoId),
      circuitoCodigo: codigoDe(circuito, sequenciaCircuito.circuitoId),
      areaCodigo: codigoDe(area, sequenciaCircuito.areaId),
      subCircuitoCodigo: codigoDe(circuito, sequenciaCircuito.subCircuitoId),
    },
    // The area and the sub-circuit are of the circuit's plant (docs/patio.md "Circuits"): they are
    // looked up in that plant only, so a file cannot break the rule.
    resolve: async (tx, rows, tenant) => {
      const circuitos = await dasPlantas(tx, tenant, circuito, rows);
      const areas = await dasPlantas(tx, tenant, area, rows);
      return rows.map((row): Row | Refusal => {
        const circuitoId = circuitos.get(key(row.plantaCodigo, row.circuitoCodigo));
        if (!circuitoId)
          return semRegistro('circuitoCodigo', 'circuito', row.plantaCodigo, row.circuitoCodigo);
        const areaId = areas.get(key(row.plantaCodigo, row.areaCodigo));
        if (!areaId) return semRegistro('areaCodigo', 'área', row.plantaCodigo, row.areaCodigo);
        let subCircuitoId: string | null = null;
        if (row.subCircuitoCodigo !== undefined) {
          subCircuitoId = circuitos.get(key(row.plantaCodigo, row.subCircuitoCodigo)) ?? null;
          if (!subCircuitoId)
            return semRegistro('subCircuitoCodigo', 'circuito', row.plantaCodigo, row.subCircuitoCodigo);
        }
        return { ...row, circuitoId, areaId, subCircuitoId };
      });
    },
  },
  Veiculo: {
    table: veiculo,
    row: Type.Object(fieldsOf(veiculoEntity, ['bloqueado', 'motivoBloqueio'])),
    naturalKey: ['placa'],
    prepare: (row) => ({ ...row, placa: normalizePlaca(String(row.placa)) }),
    // The entity's rule: a vehicle's new category must take its place in its compositions
    // (composicoes.ts); an import that keeps existing vehicles changes no category.
    resolve: async (tx, rows, tenant, { update }) => {
      if (!update) return rows;
      const impedidos = await lugaresImpedidos(
        tx,
        tenant,
        new Map(rows.map((r) => [String(r.placa), String(r.tipoVeiculo)])),
      );
      return rows.map((row) => {
        const lugar = impedidos.get(String(row.placa));
        if (!lugar) return row;
        const { message } = E.categoriaEmComposicao({
          placa: String(row.placa),
          tipo: String(row.tipoVeiculo),
          posicao: lugar.posicao,
          id: lugar.composicaoId,
        });
        return refuse('tipoVeiculo', message);
      });
    },
  },
  Endereco: {
    table: endereco,
    row: Type.Object({ plantaCodigo: Codigo('plant (one address per plant)'), ...enderecoFields }),
    naturalKey: ['plantaId'],
    refs: { plantaCodigo: codigoDe(planta, endereco.plantaId) },
    prepare: (row) => normalizaEndereco({ ...row }),
    resolve: daPlanta,
  },
  TipoVeiculo: {
    table: tipoVeiculo,
    row: Type.Object(tipoVeiculoFields),
    naturalKey: ['codigo'],
    prepare: (row) => ({ ...row, ativo: row.ativo ?? true }),
  },
};
