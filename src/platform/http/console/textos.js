// The console's words (docs/console.md): every event as a sentence an operator reads, times in the
// plant's time zone in pt-BR, durations in minutes and hours. No id is ever written: records are
// named through `nomes` (plate, area code and name, driver's name), and any UUID left in a message
// from the server is taken out (semIds). Pure functions: the tests import them.

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** The text without UUIDs (and without the brackets or blanks they leave). */
export function semIds(texto) {
  return String(texto ?? '')
    .replace(UUID, '')
    .replace(/\(\s*\)|\[\s*\]/g, '')
    .replace(/\s{2,}/g, ' ')
    .replace(/\s+([,.:;)])/g, '$1')
    .trim();
}

/** HH:mm:ss of an instant in the time zone, pt-BR. */
/** A plate as yms/patio stores it and the board shows it (a camera may send `abc-1d23`). */
const comoNoQuadro = (placa) =>
  typeof placa === 'string' && placa ? placa.replace('-', '').toUpperCase() : undefined;

export function hora(instante, fuso, segundos = true) {
  if (!instante) return '';
  return new Intl.DateTimeFormat('pt-BR', {
    timeZone: fuso || undefined,
    hour: '2-digit',
    minute: '2-digit',
    ...(segundos ? { second: '2-digit' } : {}),
  }).format(new Date(instante));
}

/** A duration in seconds as an operator says it: 45 s, 12 min, 1 h 05 min. */
export function duracao(segundos) {
  if (segundos === null || segundos === undefined) return '—';
  const s = Math.max(0, Math.round(segundos));
  if (s < 60) return `${s} s`;
  const min = Math.round(s / 60);
  if (min < 60) return `${min} min`;
  return `${Math.floor(min / 60)} h ${String(min % 60).padStart(2, '0')} min`;
}

/** What happened, by topic, in words (the feed's first column). */
const ACONTECEU = {
  vehicleEnteredYard: 'Entrada no pátio',
  vehicleEnteredAreaInYard: 'Chegada em área',
  vehicleExitedYard: 'Saída do pátio',
  wsFilaItem: 'Fila',
  wsLogRotina: 'Rotina',
  execucaoCircuitoFinalizada: 'Circuito concluído',
  execucaoCircuitoCancelada: 'Circuito cancelado',
  motoristaAlteradoEmExecucao: 'Troca de motorista',
};

/** What an agenda went through (yms/agenda agendaAlterada's `operacao`). */
const NA_AGENDA = {
  CRIADA: () => 'agendada',
  ESTADO: (p) => `passou de ${p.de} a ${p.para}`,
  ALTERADA: () => 'alterada',
  EXCLUIDA: () => 'excluída',
};

/** camelCase → words: "agendaAlterada" → "agenda alterada". */
const palavras = (nome) =>
  nome
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/^ws /i, '')
    .toLowerCase()
    .replace(/^./, (c) => c.toUpperCase());

/** The lookups a sentence needs; each answers undefined when it does not know the record. */
const NADA = {
  area: () => undefined,
  planta: () => undefined,
  placa: () => undefined,
  motorista: () => undefined,
};

/**
 * One line of the feed: `topico` (what happened, in words), `texto` (the sentence) and `classe`
 * (ok / falha for a routine's outcome).
 */
export function resumo(evento, nomes = NADA) {
  const n = { ...NADA, ...nomes };
  const p = evento.payload ?? {};
  const nome = evento.topic.split('/').pop();
  const topico = ACONTECEU[nome] ?? palavras(nome);
  const placa =
    (p.veiculoId && n.placa(p.veiculoId)) ?? comoNoQuadro(p.placa) ?? 'veículo sem placa conhecida';
  const area = (id) => (id ? (n.area(id) ?? 'área não cadastrada') : undefined);
  const motorista = p.motoristaId ? n.motorista(p.motoristaId) : undefined;
  const comMotorista = motorista ? `, motorista ${motorista}` : '';
  const pronto = (texto, classe = '') => ({ topico, texto: semIds(texto), classe });

  if (nome === 'wsLogRotina' && p.logRotina) {
    const log = p.logRotina;
    const condicao = log.tipo === 'CONDICAO';
    const ok = condicao ? log.resultado : log.sucesso;
    const quem = condicao ? `Condição ${log.nome}` : `Comando ${log.nome}`;
    const como = condicao ? (ok ? 'atendida' : 'não atendida') : ok ? 'executado' : 'falhou';
    return pronto(`${quem} ${como}${log.mensagem ? `: ${log.mensagem}` : ''}.`, ok ? 'ok' : 'falha');
  }
  if (nome === 'wsFilaItem') {
    const item = p.filaItem ?? {};
    const quem = (item.veiculoId && n.placa(item.veiculoId)) ?? comoNoQuadro(item.placa) ?? 'veículo';
    const onde = area(p.fila);
    if (p.operacao === 'CRIADO')
      return pronto(`${quem} entrou na fila de ${onde}, ${item.posicao}º da fila.`);
    if (p.operacao === 'REMOVIDO') return pronto(`${quem} saiu da fila de ${onde}.`);
    return pronto(`${quem} passou a ${item.posicao}º na fila de ${onde}.`);
  }
  if (nome === 'vehicleEnteredYard') {
    const planta = n.planta(p.plantaId);
    return pronto(
      `${placa} entrou no pátio${planta ? ` de ${planta}` : ''}${p.areaId ? ` por ${area(p.areaId)}` : ''}${comMotorista}.`,
    );
  }
  if (nome === 'vehicleEnteredAreaInYard')
    return pronto(`${placa} chegou em ${area(p.areaId)}${comMotorista}.`);
  if (nome === 'vehicleExitedYard')
    return pronto(`${placa} saiu do pátio${p.areaId ? ` por ${area(p.areaId)}` : ''}${comMotorista}.`);
  if (nome === 'execucaoCircuitoFinalizada') return pronto(`${placa} concluiu o circuito${comMotorista}.`);
  if (nome === 'execucaoCircuitoCancelada')
    return pronto(`O circuito de ${placa} foi cancelado${p.motivo ? `: ${p.motivo}` : ''}.`);
  if (nome === 'motoristaAlteradoEmExecucao') {
    const antigo = n.motorista(p.motoristaAntigoId) ?? 'sem motorista';
    const novo = n.motorista(p.motoristaNovoId) ?? 'motorista não cadastrado';
    return pronto(`Motorista trocado: ${antigo} por ${novo}${p.motivo ? ` (${p.motivo})` : ''}.`);
  }
  if (nome === 'agendaAlterada' && NA_AGENDA[p.operacao])
    return pronto(`Agenda ${p.codigo} ${NA_AGENDA[p.operacao](p)}.`);
  // Any other event: what the payload says in words (plate, agenda code, state, reason), never raw JSON.
  const partes = [
    (p.veiculoId && n.placa(p.veiculoId)) ?? comoNoQuadro(p.placa),
    p.codigo !== undefined && `agenda ${p.codigo}`,
    p.agenda?.codigo !== undefined && `agenda ${p.agenda.codigo}`,
    p.status && `situação ${p.status}`,
    p.agenda?.status && `situação ${p.agenda.status}`,
    p.motivo,
    p.mensagem,
  ].filter(Boolean);
  return pronto(partes.length ? `${partes.join(', ')}.` : `${topico}.`);
}
