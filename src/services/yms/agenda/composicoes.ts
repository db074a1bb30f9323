import { action } from '../../../platform/core/registry.ts';
import { ComposicaoVeiculo, NovaComposicaoVeiculo } from '../patio/contract.ts';
import { E } from './errors.ts';
import { representacao, SUJEITOS, veiculosNaoVinculados } from './representacao.ts';

// cadastrarComposicaoVeiculo (spec 000 §4.5; docs/agenda.md): a composition (tractor and trailers)
// created in yms/patio, which owns the record and its rules, through ctx.call. A partner's user
// composes only vehicles linked to its partner.

export const composicoes = {
  cadastrarComposicaoVeiculo: action({
    description:
      "Registers a vehicle composition in yms/patio and answers it; a partner's user uses only its linked vehicles",
    subjects: SUJEITOS,
    input: NovaComposicaoVeiculo,
    output: ComposicaoVeiculo,
    handler: async (ctx, input) => {
      const rep = await representacao(ctx);
      if (rep) {
        const partes = [input.cavaloId, ...((input.reboqueIds as string[] | undefined) ?? [])].map(String);
        const [fora] = await veiculosNaoVinculados(ctx, rep.ids, partes);
        if (fora)
          throw E.veiculoNaoVinculado({ veiculoId: fora, nome: rep.parceiros.map((p) => p.nome).join(', ') });
      }
      const { composicaoVeiculo: criada } = await ctx.call<{ composicaoVeiculo: never }>(
        'yms/patio/actions/criarComposicaoVeiculo',
        { composicaoVeiculo: input },
      );
      return criada;
    },
  }),
};
