import { or } from 'drizzle-orm';
import { containsPattern, likeFolded } from '../../../platform/core/db/search.ts';
import { statement } from '../../../platform/core/db/statement.ts';
import type { Ctx } from '../../../platform/core/declarations.ts';
import { MAX_IDS_PESQUISA } from './contract.ts';
import { E } from './errors.ts';
import { externalTenant as parceiroTable } from './tables/parceiros.ts';
import { tipoAgendamento as tipoTable } from './tables/tipos.ts';

// The free text of a search over this service's partners and appointment types (filtrarAgenda,
// pesquisarAgendas and filtrarPreAgenda OR the ids it finds with their own conditions).

/** pesquisaNosCadastros' reads, built once (core/db/statement.ts): `padrao` is `%text%`, escaped. */
function parceirosPorTexto(documento: boolean) {
  return statement(`yms.agenda.parceirosPorTexto${documento ? '.documento' : ''}`, (b) =>
    b.db
      .select({ id: parceiroTable.id })
      .from(parceiroTable)
      .where(
        b.scope(
          parceiroTable,
          or(
            likeFolded(parceiroTable.nome, b.param('padrao')),
            documento ? likeFolded(parceiroTable.codigo, b.param('documento')) : undefined,
          ),
        ),
      )
      .limit(b.param('limite') as unknown as number),
  );
}
const PARCEIROS = { porNome: parceirosPorTexto(false), comDocumento: parceirosPorTexto(true) };
const TIPOS_POR_TEXTO = statement('yms.agenda.tiposPorTexto', (b) =>
  b.db
    .select({ id: tipoTable.id })
    .from(tipoTable)
    .where(
      b.scope(
        tipoTable,
        or(
          likeFolded(tipoTable.descricao, b.param('padrao')),
          likeFolded(tipoTable.codigo, b.param('padrao')),
        ),
      ),
    )
    .limit(b.param('limite') as unknown as number),
);

/**
 * The partners whose name contains the text, or whose CNPJ/CPF contains its digits (a text of digits
 * and punctuation with at least 3 digits), and the appointment types whose description or code
 * contains it: at most MAX_IDS_PESQUISA each (more is 422, as yms/patio does for plates).
 */
export async function pesquisaNosCadastros(
  ctx: Ctx,
  texto: string,
): Promise<{ parceiroIds: string[]; tipoIds: string[] }> {
  const limite = MAX_IDS_PESQUISA + 1;
  const digitos = texto.replace(/\D/g, '');
  const documento = digitos.length >= 3 && /^[\d.\-/\s]+$/.test(texto);
  const padrao = containsPattern(texto);
  const [parceiros, tipos] = await Promise.all([
    ctx.store.run(documento ? PARCEIROS.comDocumento : PARCEIROS.porNome, {
      padrao,
      documento: `%${digitos}%`,
      limite,
    }),
    ctx.store.run(TIPOS_POR_TEXTO, { padrao, limite }),
  ]);
  if (parceiros.length > MAX_IDS_PESQUISA)
    throw E.pesquisaAmpla({ texto, max: MAX_IDS_PESQUISA, registros: 'parceiros' });
  if (tipos.length > MAX_IDS_PESQUISA)
    throw E.pesquisaAmpla({ texto, max: MAX_IDS_PESQUISA, registros: 'tipos de agendamento' });
  return { parceiroIds: parceiros.map((r) => r.id), tipoIds: tipos.map((r) => r.id) };
}
