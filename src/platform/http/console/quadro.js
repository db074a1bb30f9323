// The yard board of one plant (docs/console.md "The board"): every area with its code and name;
// an area with spots shows each spot labelled rua-numero with the plate of the vehicle in it, and
// its queue (position, plate, waiting time); an area without spots (gate, scale, exit) shows the
// vehicles present there. Drawn from what console.js loaded; no id is written.

import { el } from './dom.js';
import { duracao, hora } from './textos.js';

/** A spot: its label, its state's colour (legend), the plate in it. */
function vagaDe(v, placas) {
  const estado = v.ativo === false ? 'inativa' : v.bloqueio ? 'bloqueada' : v.ocupada ? 'ocupada' : 'livre';
  const placa = v.ocupada ? (placas.get(v.veiculoId) ?? 'ocupada') : '';
  const celula = el(
    'div',
    `vaga ${estado}`,
    el('span', 'rotulo', `${v.rua}-${v.numero}`),
    el('span', 'placa', placa || (estado === 'livre' ? 'livre' : estado)),
  );
  celula.title = `Rua ${v.rua}, vaga ${v.numero}: ${placa || estado}${v.bloqueio && v.motivoBloqueio ? ` (${v.motivoBloqueio})` : ''}`;
  return celula;
}

/** An area's queue, first first, with how long each one has waited. */
function filaDe(itens, agora, fuso) {
  if (!itens?.length) return el('p', 'fila vazia', 'Fila: ninguém esperando.');
  const lista = el('ol', 'fila');
  for (const i of itens)
    lista.append(
      el(
        'li',
        'na-fila',
        el('b', '', `${i.posicao}º`),
        ` ${i.placa} `,
        el(
          'small',
          '',
          `espera há ${duracao((agora - Date.parse(i.desde)) / 1000)} (desde ${hora(i.desde, fuso, false)})`,
        ),
      ),
    );
  return el('div', 'fila-bloco', el('h5', '', `Fila: ${itens.length} esperando`), lista);
}

/** The vehicles whose last report was this area (an area without spots, or waiting there). */
function presentesDe(veiculos, agora, fuso) {
  if (!veiculos.length) return el('p', 'presentes vazia', 'Nenhum veículo na área.');
  const lista = el('ul', 'presentes');
  for (const v of veiculos)
    lista.append(
      el(
        'li',
        'presente',
        el('b', '', v.placa),
        v.motorista ? ` · ${v.motorista}` : '',
        el(
          'small',
          '',
          ` há ${duracao((agora - Date.parse(v.chegadaArea)) / 1000)} (desde ${hora(v.chegadaArea, fuso, false)})`,
        ),
      ),
    );
  return lista;
}

/** One area: title, dwell time of the day, spots and queue, or the vehicles present. */
function areaDe(a, dados, placas, agora, fuso) {
  const vagas = dados.vagasPorArea.get(a.id) ?? [];
  const tempo = dados.tempos?.areas?.find((t) => t.areaId === a.id);
  const ocupadas = vagas.filter((v) => v.ocupada).length;
  const titulo = el(
    'h4',
    '',
    el('span', 'codigo', a.codigo),
    ` ${a.descricao}`,
    el('small', '', vagas.length ? ` ${ocupadas} de ${vagas.length} vagas ocupadas` : ' sem vagas'),
  );
  const bloco = el(
    'div',
    `area${vagas.length ? '' : ' sem-vagas'}${a.ativo === false ? ' inativa' : ''}`,
    titulo,
  );
  bloco.dataset.codigo = a.codigo;
  if (tempo?.quantidade)
    bloco.append(
      el(
        'p',
        'tempo-area',
        `Permanência hoje: média ${duracao(tempo.mediaSegundos)}, p90 ${duracao(tempo.p90Segundos)} (${tempo.quantidade} saídas)`,
      ),
    );
  const aqui = dados.veiculos.filter((v) => v.areaId === a.id);
  if (vagas.length) {
    const grade = el('div', 'vagas');
    for (const v of vagas) grade.append(vagaDe(v, placas));
    bloco.append(grade, filaDe(dados.filas.get(a.id), agora, fuso));
  } else bloco.append(presentesDe(aqui, agora, fuso));
  return bloco;
}

/** The board of a plant. */
export function quadroDaPlanta(dados, agora) {
  const { planta } = dados;
  const fuso = planta.fusoHorario;
  const placas = new Map(dados.veiculos.map((v) => [v.veiculoId, v.placa]));
  for (const itens of dados.filas.values()) for (const i of itens) placas.set(i.veiculoId, i.placa);
  for (const [id, placa] of dados.placasConhecidas ?? []) if (!placas.has(id)) placas.set(id, placa);
  const bloco = el(
    'section',
    'planta',
    el(
      'h3',
      '',
      el('span', 'codigo', planta.codigo),
      ` ${planta.nome}`,
      el('small', '', ` · horário de ${fuso}`),
    ),
  );
  bloco.dataset.codigo = planta.codigo;
  const areas = [...dados.areas].sort((x, y) => x.codigo.localeCompare(y.codigo));
  if (!areas.length) bloco.append(el('p', '', 'Nenhuma área cadastrada nesta planta.'));
  for (const a of areas) bloco.append(areaDe(a, dados, placas, agora, fuso));
  return bloco;
}
