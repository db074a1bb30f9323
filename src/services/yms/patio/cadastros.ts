import { Cep, cepDigits } from '../../../platform/core/cep.ts';
import { defineEntity } from '../../../platform/core/entity.ts';
import { Double, Enum, Int64, Type } from '../../../platform/core/schema.ts';
import { Str } from './common.ts';
import { mustExist, TIPOS_VEICULO } from './entities.ts';
import { endereco as enderecoTable, tipoVeiculo as tipoVeiculoTable } from './tables/cadastros.ts';
import { planta as plantaTable } from './tables/plantas.ts';

// Registers that came with the imports and exports of spec 000 §4.3 (docs/patio.md "Imports and
// exports"): a plant's address (Endereco) and the tenant's catalogue of vehicle types (TipoVeiculo).

const opt = Type.Optional;

export const UF = '^[A-Za-z]{2}$';

/** The address fields, shared by the entity and the import row (which names the plant by code). */
export const enderecoFields = {
  logradouro: Str(150, 'street', 1),
  numero: opt(Str(20, 'number, as written (e.g. "S/N", "1200-A")')),
  complemento: opt(Str(100)),
  bairro: opt(Str(100)),
  cidade: Str(100, undefined, 1),
  uf: Type.String({ pattern: UF, description: 'state abbreviation (SP, MT); stored upper case' }),
  cep: opt(Cep()),
  pais: opt(Type.String({ pattern: UF, description: 'ISO 3166-1 alpha-2 country, default BR' })),
  latitude: opt(Double({ minimum: -90, maximum: 90, description: 'decimal degrees (WGS 84)' })),
  longitude: opt(Double({ minimum: -180, maximum: 180, description: 'decimal degrees (WGS 84)' })),
};

/** Upper-case state and country (default BR), CEP as digits: the same for the entity and imports. */
export function normalizaEndereco(next: Record<string, unknown>): Record<string, unknown> {
  if (typeof next.uf === 'string') next.uf = next.uf.toUpperCase();
  next.pais = typeof next.pais === 'string' ? next.pais.toUpperCase() : 'BR';
  if (typeof next.cep === 'string') next.cep = cepDigits(next.cep);
  return next;
}

export const endereco = defineEntity({
  name: 'endereco',
  description: 'The address of a plant (one per plant), with its coordinates for maps and routing',
  table: enderecoTable,
  naturalKey: ['plantaId'],
  fields: Type.Object({
    plantaId: Type.String({ format: 'uuid', description: 'the plant (planta.id); one address per plant' }),
    ...enderecoFields,
  }),
  hooks: {
    beforeSave: async (ctx, next, previous) => {
      normalizaEndereco(next);
      if (next.plantaId !== previous?.plantaId)
        await mustExist(ctx, plantaTable, 'planta', 'plantaId', next.plantaId);
    },
  },
});

export const tipoVeiculoFields = {
  codigo: Str(20, 'type code, unique in the tenant', 1),
  descricao: Str(100, 'e.g. "Bitrem 7 eixos"', 1),
  categoria: Enum(TIPOS_VEICULO, { description: 'the vehicle category (veiculo.tipoVeiculo) of this type' }),
  eixos: opt(Int64({ minimum: 1, maximum: 20, description: 'number of axles' })),
  pesoMaximoKg: opt(Double({ minimum: 0, maximum: 200_000, description: 'gross combined weight limit, kg' })),
  ativo: opt(Type.Boolean({ description: 'default true' })),
};

export const tipoVeiculo = defineEntity({
  name: 'tipoVeiculo',
  description: "The tenant's catalogue of vehicle types, each of one vehicle category (veiculo.tipoVeiculo)",
  table: tipoVeiculoTable,
  naturalKey: ['codigo'],
  fields: Type.Object(tipoVeiculoFields),
  hooks: {
    beforeSave: async (_ctx, next) => {
      next.ativo ??= true;
    },
  },
});

export const cadastroEntities = [endereco, tipoVeiculo];
