// The live console of a tenant's yard (docs/console.md): the spots of every area, and the yard's
// events as they happen, from the bridge's Server-Sent Events stream. Plain browser JavaScript, no
// build step. EventSource cannot send an Authorization header, so the stream is read with fetch
// and parsed here (parseSse, exported for the tests); a reconnection resumes with Last-Event-ID.

const MAX_EVENTOS = 200;
const TOPICOS_DO_PATIO =
  /^yms\/patio\/(vehicleEnteredYard|vehicleEnteredAreaInYard|vehicleExitedYard|execucao)/;

/**
 * An incremental parser of `text/event-stream`: feed it chunks as they arrive; it calls `onEvent`
 * with `{id, data}` for every complete event (comments and blank events are skipped).
 */
export function parseSse(onEvent) {
  let buffer = '';
  let id;
  let data = [];
  return (chunk) => {
    buffer += chunk;
    let end = buffer.indexOf('\n');
    while (end >= 0) {
      const line = buffer.slice(0, end).replace(/\r$/, '');
      buffer = buffer.slice(end + 1);
      if (line === '') {
        if (data.length) onEvent({ id, data: data.join('\n') });
        data = [];
      } else if (!line.startsWith(':')) {
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'id') id = value;
        else if (field === 'data') data.push(value);
      }
      end = buffer.indexOf('\n');
    }
  };
}

/** One line of the feed: what a yard operator reads first. */
export function resumo(evento) {
  const p = evento.payload ?? {};
  const topico = evento.topic.split('/').pop();
  if (topico === 'wsLogRotina' && p.logRotina) {
    const log = p.logRotina;
    const ok = log.tipo === 'CONDICAO' ? log.resultado : log.sucesso;
    return { topico, texto: `${log.nome}: ${log.mensagem}`, classe: ok ? 'ok' : 'falha' };
  }
  if (topico === 'wsFilaItem') {
    const item = p.filaItem ?? {};
    return { topico, texto: `${p.operacao} ${p.fila}: ${item.placa ?? item.id ?? ''}`, classe: '' };
  }
  const partes = [p.placa ?? p.veiculoId, p.areaId && `área ${p.areaId}`, p.motivo].filter(Boolean);
  return { topico, texto: partes.length ? partes.join(' · ') : JSON.stringify(p).slice(0, 160), classe: '' };
}

function iniciar() {
  const tenant = decodeURIComponent(location.pathname.split('/')[2] ?? '');
  const base = `/t/${encodeURIComponent(tenant)}/bridge/1.0`;
  const $ = (id) => document.getElementById(id);
  $('tenant').textContent = tenant;
  let chave = sessionStorage.getItem(`ponte:${tenant}:chave`) ?? '';
  let usuario = sessionStorage.getItem(`ponte:${tenant}:usuario`) ?? '';
  let ultimoId;
  let controle;
  let atraso = 1000;
  let quadroPendente;

  const estado = (texto) => {
    $('estado').textContent = texto;
  };

  async function chamar(endereco, corpo) {
    const res = await fetch(`${base}/rest/${endereco}`, {
      method: 'POST',
      headers: { authorization: chave, 'content-type': 'application/json' },
      body: JSON.stringify(corpo),
    });
    if (!res.ok) throw new Error(`${endereco}: ${res.status} ${(await res.json()).message ?? ''}`);
    return res.json();
  }

  async function desenharPatio() {
    const [{ vaga }, areas] = await Promise.all([
      chamar('yms/patio/actions/vagaChangeAll', {}),
      fetch(`${base}/rest/yms/patio/entities/area?size=1000`, { headers: { authorization: chave } }).then(
        (r) => (r.ok ? r.json() : []),
      ),
    ]);
    const nomes = new Map(areas.map((a) => [a.id, `${a.codigo} · ${a.descricao}`]));
    const porArea = new Map();
    for (const v of vaga) porArea.set(v.areaId, [...(porArea.get(v.areaId) ?? []), v]);
    const alvo = $('patio');
    alvo.replaceChildren();
    for (const [areaId, vagas] of porArea) {
      const ocupadas = vagas.filter((v) => v.ocupada).length;
      const bloco = document.createElement('div');
      bloco.className = 'area';
      const titulo = document.createElement('h3');
      titulo.textContent = `${nomes.get(areaId) ?? areaId}: ${ocupadas} de ${vagas.length} ocupadas`;
      const grade = document.createElement('div');
      grade.className = 'vagas';
      for (const v of vagas) {
        const celula = document.createElement('span');
        celula.className = `vaga${v.ocupada ? ' ocupada' : ''}${v.bloqueio ? ' bloqueada' : ''}${v.ativo === false ? ' inativa' : ''}`;
        celula.title = `rua ${v.rua}, número ${v.numero}${v.ocupada ? ` · veículo ${v.veiculoId}` : ''}${v.bloqueio ? ` · bloqueada: ${v.motivoBloqueio ?? ''}` : ''}`;
        grade.append(celula);
      }
      bloco.append(titulo, grade);
      alvo.append(bloco);
    }
    if (porArea.size === 0) alvo.textContent = 'nenhuma vaga cadastrada';
  }

  const redesenharLogo = () => {
    clearTimeout(quadroPendente);
    quadroPendente = setTimeout(() => desenharPatio().catch((e) => estado(String(e.message))), 300);
  };

  function mostrar(evento) {
    const { topico, texto, classe } = resumo(evento);
    const item = document.createElement('li');
    const hora = document.createElement('time');
    hora.dateTime = evento.occurredAt;
    hora.textContent = new Date(evento.occurredAt).toLocaleTimeString();
    const nome = document.createElement('span');
    nome.className = 'topico';
    nome.textContent = topico;
    const corpo = document.createElement('span');
    corpo.className = classe;
    corpo.textContent = texto;
    item.append(hora, nome, corpo);
    const lista = $('eventos');
    lista.prepend(item);
    while (lista.children.length > MAX_EVENTOS) lista.lastChild.remove();
    if (TOPICOS_DO_PATIO.test(evento.topic)) redesenharLogo();
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
      if (!res.ok) throw new Error(`o stream respondeu ${res.status}`);
      estado('conectado');
      atraso = 1000;
      const leitor = res.body.pipeThrough(new TextDecoderStream()).getReader();
      const alimentar = parseSse(({ id, data }) => {
        if (id !== undefined) ultimoId = id;
        mostrar(JSON.parse(data));
      });
      for (;;) {
        const { value, done } = await leitor.read();
        if (done) break;
        alimentar(value);
      }
      throw new Error('o stream terminou');
    } catch (e) {
      if (e.name === 'AbortError') return;
      estado(`desconectado (${e.message}); nova tentativa em ${atraso / 1000} s`);
      setTimeout(ouvir, atraso);
      atraso = Math.min(atraso * 2, 30_000);
    }
  }

  async function conectar() {
    sessionStorage.setItem(`ponte:${tenant}:chave`, chave);
    sessionStorage.setItem(`ponte:${tenant}:usuario`, usuario);
    estado('conectando…');
    try {
      await desenharPatio();
    } catch (e) {
      estado(String(e.message));
    }
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
