// The console a yard is run from (docs/console.md): per plant its board (quadro.js), its day's
// numbers and schedule (dia.js), and the yard's events as sentences (textos.js), live from the
// bridge's Server-Sent Events stream. Plain browser JavaScript, no build step. Everything comes from
// the bridge's API, called with the operator's key; a yard or agenda event redraws (debounced).
// EventSource cannot send an Authorization header, so the stream is read with fetch and parsed
// here (parseSse, exported for the tests); a reconnection resumes with Last-Event-ID.

import { agendaDaPlanta, numerosDaPlanta } from './dia.js';
import { el } from './dom.js';
import { quadroDaPlanta } from './quadro.js';
import { hora, resumo, semIds } from './textos.js';

export { resumo, semIds };

const MAX_EVENTOS = 200;
const REDESENHO_MS = 300;
const RELOGIO_MS = 30_000;

/**
 * An incremental parser of `text/event-stream`: feed it chunks as they arrive; it calls `onEvent`
 * with `{id, event, data}` for every complete event (comments and blank events are skipped; `event`
 * is the event's name when it has one: the server's `error` before it ends the stream).
 */
export function parseSse(onEvent) {
  let buffer = '';
  let id;
  let event;
  let data = [];
  return (chunk) => {
    buffer += chunk;
    let end = buffer.indexOf('\n');
    while (end >= 0) {
      const line = buffer.slice(0, end).replace(/\r$/, '');
      buffer = buffer.slice(end + 1);
      if (line === '') {
        if (data.length) onEvent({ id, event, data: data.join('\n') });
        data = [];
        event = undefined;
      } else if (!line.startsWith(':')) {
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'id') id = value;
        else if (field === 'event') event = value;
        else if (field === 'data') data.push(value);
      }
      end = buffer.indexOf('\n');
    }
  };
}

function iniciar() {
  const tenant = decodeURIComponent(location.pathname.split('/')[2] ?? '');
  const base = `/t/${encodeURIComponent(tenant)}/bridge/1.0`;
  const $ = (id) => document.getElementById(id);
  $('tenant').textContent = tenant;
  for (const alvo of document.querySelectorAll('.tenant-nome')) alvo.textContent = tenant;
  let chave = sessionStorage.getItem(`ponte:${tenant}:chave`) ?? '';
  let usuario = sessionStorage.getItem(`ponte:${tenant}:usuario`) ?? '';
  let ultimoId;
  let controle;
  let atraso = 1000;
  let quadroPendente;
  let relogio;
  // What the sentences name records by: filled by each load, and by lookups of unknown ids.
  const nomes = {
    areas: new Map(),
    plantas: new Map(),
    placas: new Map(),
    motoristas: new Map(),
    fusos: new Map(),
    /** area id → its plant's id: a queue event names only its area. */
    plantaDaArea: new Map(),
  };
  let fusoPadrao;

  const estado = (texto) => {
    $('estado').textContent = semIds(texto);
  };

  async function pedir(endereco, init = {}) {
    const res = await fetch(`${base}/rest/${endereco}`, {
      ...init,
      headers: { authorization: chave, 'content-type': 'application/json' },
    });
    if (!res.ok) {
      const corpo = await res.json().catch(() => ({}));
      throw new Error(`${endereco.split('/').pop()}: ${res.status} ${corpo.message ?? ''}`);
    }
    return res.json();
  }
  const chamar = (endereco, corpo) => pedir(endereco, { method: 'POST', body: JSON.stringify(corpo) });
  const lista = (entidade) => pedir(`${entidade}?size=1000`);

  /** Everything one plant's part of the page shows. */
  async function dadosDaPlanta(planta, areas, vagas, tipos) {
    const plantaId = planta.id;
    const q = (nome, corpo) => chamar(`yms/patio/queries/${nome}`, { plantaId, ...corpo });
    const [veiculos, tempos, pontualidade, agenda] = await Promise.all([
      q('veiculosNoPatio'),
      q('temposDoDia'),
      q('pontualidadeDoDia'),
      q('agendaDoDia'),
    ]);
    const vagasPorArea = new Map();
    for (const v of vagas)
      if (areas.some((a) => a.id === v.areaId))
        vagasPorArea.set(v.areaId, [...(vagasPorArea.get(v.areaId) ?? []), v]);
    for (const l of vagasPorArea.values()) l.sort((x, y) => x.rua - y.rua || x.numero - y.numero);
    const filas = new Map(
      await Promise.all(
        [...vagasPorArea.keys()].map(async (areaId) => [
          areaId,
          (await chamar('yms/patio/queries/buscarFilaArea', { areaId })).content,
        ]),
      ),
    );
    let horarios = [];
    let erroAgenda;
    try {
      horarios = await Promise.all(
        tipos
          .filter((t) => t.plantaId === plantaId && t.ativo !== false)
          .sort((x, y) => x.codigo.localeCompare(y.codigo))
          .map(async (tipo) => ({
            tipo,
            horarios: (
              await chamar('yms/agenda/queries/horarioOperacao', {
                tipoAgendamentoId: tipo.id,
                data: agenda.data,
                plantaId,
              })
            ).horarios,
          })),
      );
    } catch (e) {
      erroAgenda = `Horários indisponíveis: ${e.message}`;
    }
    return {
      planta,
      areas,
      vagasPorArea,
      filas,
      veiculos: veiculos.veiculos,
      quantidadeNoPatio: veiculos.quantidade,
      tempos,
      pontualidade,
      agenda,
      horarios,
      erroAgenda,
      placasConhecidas: nomes.placas,
    };
  }

  async function desenhar() {
    const [plantas, areas, { vaga }, tipos] = await Promise.all([
      lista('yms/patio/entities/planta'),
      lista('yms/patio/entities/area'),
      chamar('yms/patio/actions/vagaChangeAll', {}),
      lista('yms/agenda/entities/tipoAgendamento').catch(() => []),
    ]);
    for (const p of plantas) {
      nomes.plantas.set(p.id, `${p.codigo} · ${p.nome}`);
      nomes.fusos.set(p.id, p.fusoHorario);
    }
    for (const a of areas) {
      nomes.areas.set(a.id, `${a.codigo} · ${a.descricao}`);
      nomes.plantaDaArea.set(a.id, a.plantaId);
    }
    // The plants' one zone; with plants in several zones, an event of none is shown in the browser's.
    const fusos = new Set(plantas.map((p) => p.fusoHorario));
    fusoPadrao = fusos.size === 1 ? [...fusos][0] : undefined;
    const ativas = plantas.filter((p) => p.ativo !== false).sort((x, y) => x.codigo.localeCompare(y.codigo));
    const dados = await Promise.all(
      ativas.map((p) =>
        dadosDaPlanta(
          p,
          areas.filter((a) => a.plantaId === p.id),
          vaga,
          tipos,
        ),
      ),
    );
    const agora = Date.now();
    const partes = dados.map((d) => {
      for (const v of d.veiculos) {
        nomes.placas.set(v.veiculoId, v.placa);
      }
      const linha = el(
        'div',
        'planta-linha',
        quadroDaPlanta(d, agora),
        el(
          'div',
          'lado',
          el('h3', '', `Números do dia · ${d.planta.codigo}`),
          numerosDaPlanta(d),
          el('h3', '', `Agenda do dia · ${d.planta.codigo}`),
          agendaDaPlanta(d),
        ),
      );
      linha.dataset.planta = d.planta.codigo;
      return linha;
    });
    $('patio').replaceChildren(...(partes.length ? partes : [el('p', '', 'Nenhuma planta cadastrada.')]));
    $('atualizado').textContent = `atualizado às ${hora(new Date(agora), fusoPadrao)}`;
  }

  const redesenharLogo = () => {
    clearTimeout(quadroPendente);
    quadroPendente = setTimeout(() => desenhar().catch((e) => estado(String(e.message))), REDESENHO_MS);
  };

  /** Learns the plate and driver's name of ids an event carries that the page does not know yet. */
  async function conhecer(p) {
    const ids = [
      ['placas', 'veiculo', p.veiculoId, (r) => r.placa],
      ['placas', 'veiculo', p.filaItem?.veiculoId, (r) => r.placa],
      ['motoristas', 'motorista', p.motoristaId, (r) => r.nome],
      ['motoristas', 'motorista', p.motoristaAntigoId, (r) => r.nome],
      ['motoristas', 'motorista', p.motoristaNovoId, (r) => r.nome],
    ];
    await Promise.all(
      ids
        .filter(([mapa, , id]) => id && !nomes[mapa].has(id))
        .map(([mapa, entidade, id, campo]) =>
          pedir(`yms/patio/entities/${entidade}/${encodeURIComponent(id)}`)
            .then((r) => nomes[mapa].set(id, campo(r)))
            .catch(() => undefined),
        ),
    );
  }

  function mostrar(evento) {
    const p = evento.payload ?? {};
    const { topico, texto, classe } = resumo(evento, {
      area: (id) => nomes.areas.get(id),
      planta: (id) => nomes.plantas.get(id),
      placa: (id) => nomes.placas.get(id),
      motorista: (id) => nomes.motoristas.get(id),
    });
    const plantaId = p.plantaId ?? nomes.plantaDaArea.get(p.areaId ?? p.fila ?? p.filaItem?.areaId);
    const fuso = nomes.fusos.get(plantaId) ?? fusoPadrao;
    const quando = p.dataHora ?? evento.occurredAt;
    const item = el(
      'li',
      '',
      el('time', '', hora(quando, fuso)),
      el('span', 'topico', topico),
      el('span', classe, texto),
    );
    item.querySelector('time').dateTime = quando;
    const feed = $('eventos');
    feed.prepend(item);
    while (feed.children.length > MAX_EVENTOS) feed.lastChild.remove();
    if (/^yms\//.test(evento.topic)) redesenharLogo();
  }

  async function ouvir() {
    controle?.abort();
    controle = new AbortController();
    const query = new URLSearchParams({ topics: 'yms/*,platform/*' });
    if (usuario) query.set('user', usuario);
    const headers = { authorization: chave };
    if (ultimoId !== undefined) headers['last-event-id'] = ultimoId;
    try {
      const res = await fetch(`${base}/events/stream?${query}`, { headers, signal: controle.signal });
      if (res.status === 401 || res.status === 403) return recusada(res.status);
      if (!res.ok) throw new Error(`o stream respondeu ${res.status}`);
      estado('conectado');
      atraso = 1000;
      const leitor = res.body.pipeThrough(new TextDecoderStream()).getReader();
      // Events are shown in order: each waits for the lookups of the one before.
      let fila = Promise.resolve();
      let fim;
      const alimentar = parseSse(({ id, event, data }) => {
        if (event === 'error') {
          fim = 401;
          return;
        }
        if (id !== undefined) ultimoId = id;
        const evento = JSON.parse(data);
        fila = fila.then(() => conhecer(evento.payload ?? {})).then(() => mostrar(evento));
      });
      for (;;) {
        const { value, done } = await leitor.read();
        if (done) break;
        alimentar(value);
      }
      if (fim) return recusada(fim);
      throw new Error('o stream terminou');
    } catch (e) {
      if (e.name === 'AbortError') return;
      estado(`desconectado (${e.message}); nova tentativa em ${atraso / 1000} s`);
      setTimeout(ouvir, atraso);
      atraso = Math.min(atraso * 2, 30_000);
    }
  }

  /**
   * The key was refused (401: unknown, revoked or of another tenant; 403: not a full key): retrying
   * cannot help, so the page stops, forgets it and says what to do.
   */
  function recusada(status) {
    controle?.abort();
    clearInterval(relogio);
    sessionStorage.removeItem(`ponte:${tenant}:chave`);
    chave = '';
    estado(
      status === 403
        ? 'chave recusada (403): o console precisa de uma chave de escopo full deste tenant'
        : `chave recusada (401): inválida, revogada ou de outro tenant; entre com uma chave de ${tenant}`,
    );
  }

  async function conectar() {
    estado('conectando…');
    try {
      await desenhar();
    } catch (e) {
      if (/: (401|403) /.test(e.message)) return recusada(Number(/: (40[13]) /.exec(e.message)[1]));
      estado(String(e.message));
    }
    // Kept for a reload only once the bridge took it.
    sessionStorage.setItem(`ponte:${tenant}:chave`, chave);
    sessionStorage.setItem(`ponte:${tenant}:usuario`, usuario);
    clearInterval(relogio);
    // Waiting times and "today" move with the clock, not only with events.
    relogio = setInterval(redesenharLogo, RELOGIO_MS);
    ouvir();
  }

  $('usuario').value = usuario;
  $('entrar').addEventListener('submit', (e) => {
    e.preventDefault();
    chave = $('chave').value.trim() || chave;
    usuario = $('usuario').value.trim();
    ultimoId = undefined;
    conectar();
  });
  if (chave) conectar();
}

if (typeof document !== 'undefined') iniciar();
