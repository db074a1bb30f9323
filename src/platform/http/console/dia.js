// The day of one plant beside its board (docs/console.md): the day's numbers (yms/patio's
// veiculosNoPatio, temposDoDia, pontualidadeDoDia) and the day's schedule — the plant's agendas by
// appointment type and slot, each slot's capacity used and free as yms/agenda's horarioOperacao
// computes it, states in colour, overdue and unscheduled ones marked, and each agenda's yard step.

import { el } from './dom.js';
import { duracao, hora } from './textos.js';

const STATUS = {
  AGENDADO: 'agendada',
  AGUARDANDO_INTEGRACAO: 'aguardando integração',
  EXECUTANDO: 'em execução',
  CONCLUIDO: 'concluída',
  ERRO_INTEGRACAO: 'erro de integração',
  CANCELADO: 'cancelada',
};
const SITUACAO = {
  NO_HORARIO: 'chegou no horário',
  ADIANTADA: 'chegou adiantada',
  ATRASADA: 'chegou atrasada',
  VENCIDA: 'vencida: não chegou',
  AGUARDANDO: 'aguardando chegada',
  SEM_AGENDAMENTO: 'sem agendamento',
  CANCELADA: 'cancelada',
};

/** One figure: its label, its value (data-numero names it for the tests), an optional note. */
function numero(nome, rotulo, valor, nota) {
  const dd = el('dd', '', String(valor));
  dd.dataset.numero = nome;
  return el('div', `numero ${nome}`, el('dt', '', rotulo), dd, nota ? el('small', '', nota) : undefined);
}

/** The day's numbers of a plant. */
export function numerosDaPlanta(dados) {
  const { veiculos, tempos, pontualidade } = dados;
  const giro = tempos?.permanenciaPatio;
  const lista = el(
    'dl',
    'numeros',
    numero('noPatio', 'No pátio agora', dados.quantidadeNoPatio ?? veiculos.length),
    numero(
      'giroMedio',
      'Giro hoje (entrada → saída), média',
      duracao(giro?.mediaSegundos),
      giro ? `p90 ${duracao(giro.p90Segundos)} · ${giro.quantidade} saídas` : undefined,
    ),
  );
  if (pontualidade)
    lista.append(
      numero(
        'noHorario',
        'Chegadas no horário',
        pontualidade.noHorario,
        `± ${pontualidade.toleranciaMinutos} min`,
      ),
      numero('adiantadas', 'Adiantadas', pontualidade.adiantadas),
      numero('atrasadas', 'Atrasadas', pontualidade.atrasadas),
      numero('vencidas', 'Agendas vencidas', pontualidade.vencidas),
      numero('semAgendamento', 'Sem agendamento', pontualidade.semAgendamento),
    );
  return lista;
}

/** An agenda of the schedule: time, code, plate, driver, state in colour, marks, yard step. */
function itemDeAgenda(a, fuso) {
  const item = el(
    'li',
    `agenda status-${a.status} situacao-${a.situacao}`,
    el('time', '', hora(a.dataEsperada, fuso, false)),
    el('b', '', ` Agenda ${a.codigo}`),
    a.placa ? ` · ${a.placa}` : ' · sem veículo',
    a.motorista ? ` · ${a.motorista}` : '',
    el('span', `status ${a.status}`, STATUS[a.status] ?? a.status),
  );
  if (a.situacao === 'VENCIDA' || a.situacao === 'SEM_AGENDAMENTO' || a.chegada)
    item.append(
      el(
        'span',
        `marca ${a.situacao}`,
        `${SITUACAO[a.situacao]}${a.chegada ? ` às ${hora(a.chegada, fuso, false)}` : ''}`,
      ),
    );
  if (a.etapa)
    item.append(
      el(
        'span',
        'etapa',
        `${a.execucaoSituacao === 'EXECUTANDO' ? 'etapa' : 'última etapa'}: ${a.etapa}${a.etapaAreaCodigo ? ` (${a.etapaAreaCodigo})` : ''}`,
      ),
    );
  else if (a.execucaoSituacao === 'FINALIZADO') item.append(el('span', 'etapa', 'circuito concluído'));
  return item;
}

/**
 * The schedule of a plant: for each of its appointment types, its slots of the day with used/free
 * capacity and the agendas expected in each; agendas outside every slot at the end.
 */
export function agendaDaPlanta(dados) {
  const fuso = dados.planta.fusoHorario;
  const agendas = dados.agenda?.agendas ?? [];
  const bloco = el('div', 'agenda-dia');
  const usadas = new Set();
  for (const { tipo, horarios } of dados.horarios ?? []) {
    const secao = el('div', 'tipo', el('h4', '', el('span', 'codigo', tipo.codigo), ` ${tipo.descricao}`));
    const slots = el('ol', 'slots');
    for (const h of horarios) {
      const ini = Date.parse(h.inicio);
      const fim = Date.parse(h.fim);
      const dele = agendas.filter((a) => {
        const t = Date.parse(a.dataEsperada);
        return a.tipoAgendamentoId === tipo.id && t >= ini && t < fim;
      });
      for (const a of dele) usadas.add(a);
      const cheio = h.disponiveis === 0;
      const linha = el(
        'li',
        `slot${cheio ? ' lotado' : ''}`,
        el('span', 'hora-slot', `${h.horaInicio}–${h.horaFim}`),
        el('span', 'capacidade', `${h.agendados}/${h.capacidade} usados · ${h.disponiveis} livres`),
      );
      if (dele.length) {
        const lista = el('ul', 'agendas');
        for (const a of dele) lista.append(itemDeAgenda(a, fuso));
        linha.append(lista);
      }
      slots.append(linha);
    }
    if (!horarios.length) slots.append(el('li', 'slot', 'Sem turnos neste dia.'));
    secao.append(slots);
    bloco.append(secao);
  }
  const fora = agendas.filter((a) => !usadas.has(a));
  if (fora.length) {
    const lista = el('ul', 'agendas');
    for (const a of fora) lista.append(itemDeAgenda(a, fuso));
    bloco.append(el('div', 'tipo fora', el('h4', '', 'Fora dos horários de operação'), lista));
  }
  if (!agendas.length && !(dados.horarios ?? []).length) bloco.append(el('p', '', 'Nenhuma agenda hoje.'));
  if (dados.erroAgenda) bloco.append(el('p', 'falha', dados.erroAgenda));
  return bloco;
}
