import { defineErrors } from '../../../platform/core/errors.ts';

// Every error tms/oficina raises as a genericError, once (STYLE.md "An error catalogue"). Failures
// the spec reports inside a successful answer (ok false, dsErro; spec 001 §7) are the texts of
// `falhas` below, not errors.
export const E = defineErrors({
  referenceNotFound: { reason: 'UNPROCESSABLE', message: '{record} {codigo} does not exist ({field})' },
  emUso: {
    reason: 'UNPROCESSABLE',
    status: 409,
    message: '{record} {codigo} is in use by {n} {usados}: move them first',
  },
  naoEncontrado: { reason: 'OBJECT_NOT_FOUND', message: '{record} {codigo} not found' },
  campoDeOrdem: {
    reason: 'BAD_REQUEST',
    message: "orderBy: '{field}' is not a field of {registro} (one of {campos})",
  },
  ordemNaoLista: {
    reason: 'BAD_REQUEST',
    message: 'orderBy must be an array of recFieldsOrderBy {field, order}, sent by POST',
  },
  veiculoSemChave: {
    reason: 'BAD_REQUEST',
    message: "RremoveVeiculo needs 'cdVeiculo' or 'nrPlaca'",
  },
});

/** The texts of dsErro when ok is false (spec 001 §7), in the users' language. */
export const falhas = {
  filial: (cd: number) => `Filial ${cd} não cadastrada`,
  centroCusto: (cd: number) => `Centro de custo ${cd} não cadastrado`,
  setor: (cd: number) => `Setor ${cd} não cadastrado`,
  setores: (cds: number[]) => `Setores não cadastrados: ${cds.join(', ')}`,
  veiculo: (cd: number) => `Veículo ${cd} não cadastrado`,
  placaRepetida: (placa: string) => `Placa ${placa} repetida na lista`,
  placaDeOutro: (placa: string, cd: number) => `A placa ${placa} já pertence ao veículo ${cd}`,
  centroEmUso: (cd: number, n: number) => `Centro de custo ${cd} em uso por ${n} veículo(s)`,
  setorEmUso: (cd: number, n: number) => `Setor ${cd} em uso por ${n} item(ns) da oficina`,
};
