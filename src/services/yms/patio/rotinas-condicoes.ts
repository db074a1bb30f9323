import { and, count, eq, isNull } from 'drizzle-orm';
import { foldText } from '../../../platform/core/db/search.ts';
import type { Ctx } from '../../../platform/core/declarations.ts';
import { E } from './errors.ts';
import { type Alcance, precisa, veiculoDo } from './rotinas-escopo.ts';
import { type Avaliacao, type Builtin, COMPARACOES, p } from './rotinas-tipos.ts';
import { execucaoCircuitoVariavel } from './tables/execucoes.ts';
import { area, vaga } from './tables/plantas.ts';
import { presencaPatio } from './tables/presencas.ts';
import { composicaoVeiculo, motorista, veiculo } from './tables/veiculos.ts';

// The built-in conditions (listCondicoes, origem SISTEMA; docs/patio.md "Conditions and commands"):
// each looks at the scope and says what it saw. They are evaluated by avaliarCondicao (rotinas.ts).

/** A number written with a dot or a decimal comma (scales print 31500,5). */
function numero(text: string): number | undefined {
  const t = text.trim();
  const normal = t.includes(',') && !t.includes('.') ? t.replace(',', '.') : t;
  if (normal === '' || !/^[-+]?\d*\.?\d+(e[-+]?\d+)?$/i.test(normal)) return undefined;
  return Number(normal);
}

function comparar(atual: string | undefined, operador: string, esperado: string): boolean {
  if (operador === 'EXISTE') return atual !== undefined;
  if (operador === 'NAO_EXISTE') return atual === undefined;
  if (atual === undefined) return false;
  // Case and accents aside, as every search (platform/core/db/search.ts).
  if (operador === 'CONTEM') return foldText(atual).includes(foldText(esperado));
  const [a, b] = [numero(atual), numero(esperado)];
  const cmp =
    a !== undefined && b !== undefined ? Math.sign(a - b) : atual < esperado ? -1 : atual > esperado ? 1 : 0;
  switch (operador) {
    case 'IGUAL':
      return cmp === 0;
    case 'DIFERENTE':
      return cmp !== 0;
    case 'MAIOR':
      return cmp > 0;
    case 'MAIOR_IGUAL':
      return cmp >= 0;
    case 'MENOR':
      return cmp < 0;
    default:
      return cmp <= 0;
  }
}

/** A variable's value: the request's, else the execution's on the target (the given, or the step's, or its area's), else on any target. */
async function valorDaVariavel(
  ctx: Ctx,
  a: Alcance,
  chave: string,
  alvoId: string | undefined,
): Promise<string | undefined> {
  if (a.variaveis.has(chave)) return a.variaveis.get(chave);
  if (!a.execucao) return undefined;
  const v = execucaoCircuitoVariavel;
  const rows = await ctx.store.select(v, and(eq(v.execucaoCircuitoId, a.execucao.id), eq(v.chave, chave)));
  if (alvoId) return rows.find((r) => r.alvoId === alvoId)?.valor;
  const preferidos = [a.sequenciaCircuitoId, a.areaId];
  for (const alvo of preferidos) {
    const row = rows.find((r) => r.alvoId === alvo);
    if (row) return row.valor;
  }
  return rows.sort((x, y) => y.alteradaEm.getTime() - x.alteradaEm.getTime())[0]?.valor;
}

async function bloqueioDoVeiculo(ctx: Ctx, a: Alcance): Promise<string | undefined> {
  const id = veiculoDo(a);
  const [v] = await ctx.store.select(veiculo, eq(veiculo.id, id));
  if (!v) throw E.veiculoNotFound({ id });
  if (v.bloqueado) return `veículo ${v.placa} bloqueado: ${v.motivoBloqueio ?? 'sem motivo'}`;
  const composicaoId = a.execucao?.composicaoVeiculoId;
  if (composicaoId) {
    const [c] = await ctx.store.select(composicaoVeiculo, eq(composicaoVeiculo.id, composicaoId));
    if (c?.motivoBloqueio) return `composição ${c.id} bloqueada: ${c.motivoBloqueio}`;
    const partes = (c?.reboqueIds ?? []) as string[];
    for (const parte of partes) {
      const [r] = await ctx.store.select(veiculo, eq(veiculo.id, parte));
      if (r?.bloqueado) return `reboque ${r.placa} bloqueado: ${r.motivoBloqueio ?? 'sem motivo'}`;
    }
  }
  return undefined;
}

export const CONDICOES: Record<string, Builtin<Avaliacao>> = {
  variavelCompara: {
    descricao:
      'Uma variável (enviada em variaveis, ou da execução: do alvo dado, da etapa atual, da sua área ou a mais ' +
      'recente) comparada a um valor; números comparam como números (vírgula decimal aceita)',
    parametros: [
      p('chave', 'texto', true, 'a variável'),
      p('operador', 'opcao', true, 'a comparação', COMPARACOES),
      p('valor', 'texto', false, 'o valor comparado (dispensado por EXISTE e NAO_EXISTE)'),
      p('alvoId', 'texto', false, 'o alvo (sequência ou área) de onde ler a variável'),
    ],
    run: async (ctx, a, params) => {
      const { chave, operador } = params as { chave: string; operador: string };
      if (params.valor === undefined && operador !== 'EXISTE' && operador !== 'NAO_EXISTE')
        throw E.rotinaParametro({
          rotina: 'variavelCompara',
          parametro: 'valor',
          rule: `é exigido por ${operador}`,
        });
      const atual = await valorDaVariavel(ctx, a, chave, params.alvoId);
      const resultado = comparar(atual, operador, params.valor ?? '');
      const visto = atual === undefined ? 'ausente' : `'${atual}'`;
      const alvo = params.valor === undefined ? '' : ` '${params.valor}'`;
      return { resultado, mensagem: `${chave} = ${visto} ${operador}${alvo}: ${resultado ? 'sim' : 'não'}` };
    },
  },
  veiculoNaoBloqueado: {
    descricao: 'O veículo do escopo, e cada parte da composição da execução, não está bloqueado',
    parametros: [],
    run: async (ctx, a) => {
      const bloqueio = await bloqueioDoVeiculo(ctx, a);
      return { resultado: !bloqueio, mensagem: bloqueio ?? 'veículo não bloqueado' };
    },
  },
  motoristaNaoBloqueado: {
    descricao: 'O motorista do escopo não está bloqueado',
    parametros: [],
    run: async (ctx, a) => {
      const id = precisa(a.motoristaId, a.rotina, 'um motorista', 'motoristaId');
      const [m] = await ctx.store.select(motorista, eq(motorista.id, id));
      if (!m) throw E.motoristaNotFound({ id });
      return m.bloqueado
        ? { resultado: false, mensagem: `motorista ${m.nome} bloqueado: ${m.motivoBloqueio ?? 'sem motivo'}` }
        : { resultado: true, mensagem: `motorista ${m.nome} não bloqueado` };
    },
  },
  vagaLivreNaArea: {
    descricao:
      'Há vaga livre (desocupada, ativa, desbloqueada) na área dada, ou na área do escopo ou da etapa',
    parametros: [p('areaId', 'uuid', false, 'a área; padrão: a do escopo ou da etapa atual')],
    run: async (ctx, a, params) => {
      const areaId = params.areaId ?? precisa(a.areaId, a.rotina, 'uma área', 'areaId');
      const [ar] = await ctx.store.select(area, eq(area.id, areaId));
      if (!ar) throw E.areaNotFound({ id: areaId });
      const [row] = await ctx.tx
        .select({ n: count() })
        .from(vaga)
        .where(
          ctx.store.scope(
            vaga,
            and(
              eq(vaga.areaId, areaId),
              eq(vaga.ocupada, false),
              eq(vaga.ativo, true),
              eq(vaga.bloqueio, false),
            ),
          ),
        );
      const n = row?.n ?? 0;
      return { resultado: n > 0, mensagem: `${n} vaga(s) livre(s) na área ${ar.codigo}` };
    },
  },
  veiculoNoPatio: {
    descricao: 'O veículo do escopo está no pátio (da planta do escopo, quando conhecida)',
    parametros: [],
    run: async (ctx, a) => {
      const id = veiculoDo(a);
      const [row] = await ctx.store.select(
        presencaPatio,
        and(eq(presencaPatio.veiculoId, id), isNull(presencaPatio.saidaEm)),
      );
      const resultado = !!row && (!a.plantaId || row.plantaId === a.plantaId);
      return {
        resultado,
        mensagem: resultado ? `no pátio desde ${row!.entradaEm.toISOString()}` : 'veículo fora do pátio',
      };
    },
  },
};
