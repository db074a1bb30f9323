import { eq, isNull } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, tableCounts, testApp } from '../../../../test/harness.ts';
import { exportFile, importFile, upload as uploadFile } from '../../../../test/transfers.ts';
import { Type } from '../../../platform/core/schema.ts';
import { ExportEventStatus, ImportEventStatus } from '../../../platform/core/transfer-events.ts';
import { validate } from '../../../platform/core/validation.ts';
import {
  makeArea,
  makeCircuito,
  makeMotorista,
  makePlanta,
  makeSequencia,
  makeVeiculo,
  outboxOf,
  seed,
} from './fixtures.ts';
import { endereco, tipoVeiculo } from './tables/cadastros.ts';
import { circuito, sequenciaCircuito } from './tables/circuitos.ts';
import {
  execucaoCircuito,
  execucaoCircuitoImagem,
  execucaoCircuitoVariavel,
  historicoExecucaoCircuito,
} from './tables/execucoes.ts';
import { area, planta, vaga } from './tables/plantas.ts';
import { motorista, veiculo } from './tables/veiculos.ts';

// yms/patio's imports and exports (spec 000 §4.3, docs/patio.md "Imports and exports"): files
// through the blob store, references by natural code, the status events, the round trip.

let t: TestApp;
const keys: Record<string, string> = {};

beforeAll(async () => {
  t = await testApp();
  keys.acme = await t.tenant('acme');
  keys.globex = await t.tenant('globex');
  keys.initech = await t.tenant('initech');
});

const upload = (tenant: string, fileName: string, content: string) =>
  uploadFile(t, tenant, keys[tenant]!, fileName, content);

async function importar(tenant: string, kind: string, fileName: string, content: string, config = {}) {
  const arquivo = await upload(tenant, fileName, content);
  return importFile(t, tenant, keys[tenant]!, `yms/patio/actions/import${kind}`, { arquivo, ...config });
}

const exportar = (tenant: string, kind: string, config: Record<string, unknown> = {}) =>
  exportFile(t, tenant, keys[tenant]!, `yms/patio/actions/export${kind}`, config);

const rows = <T>(
  tenant: string,
  work: (tx: Parameters<Parameters<TestApp['db']['tenant']>[1]>[0]) => Promise<T>,
) => t.db.tenant(tenant, work);

describe('imports of the registers', () => {
  it('imports plants, addresses, vehicle types, areas, spots, circuits, steps and vehicles by natural code', async () => {
    const plantas = await importar(
      'acme',
      'Planta',
      'plantas.csv',
      'codigo,nome,cnpj,fusoHorario\nP1,Planta Um,12.345.678/0001-95,\nP2,Planta Dois,,America/Cuiaba\nP3,Planta Três,,Marte/Olympus\n' +
        'P4,Dígito errado,12.345.678/0001-90,\nP5,CNPJ de P1,12345678000195,\n',
    );
    // The entity's rules: check digits (a row's error), one plant per CNPJ (the database refuses it).
    expect(plantas.status).toMatchObject({ state: 'done', processed: 5, succeeded: 2, failed: 3 });
    expect(plantas.errors).toEqual([
      { row: 3, field: 'fusoHorario', message: 'fusoHorario Marte/Olympus não é um fuso horário IANA' },
      { row: 4, field: 'cnpj', message: 'cnpj 12345678000190 não é um CNPJ válido (dígitos verificadores)' },
      {
        row: 5,
        message:
          'refused by the database: duplicate key value violates unique constraint "patio_planta_cnpj"',
      },
    ]);
    const [p1] = await rows('acme', (tx) => tx.select().from(planta).where(eq(planta.codigo, 'P1')));
    expect(p1).toMatchObject({ cnpj: '12345678000195', fusoHorario: 'America/Sao_Paulo', ativo: true });
    expect(await rows('acme', (tx) => tx.select().from(planta).where(eq(planta.codigo, 'P5')))).toEqual([]);

    const enderecos = await importar(
      'acme',
      'Endereco',
      'enderecos.jsonl',
      [
        {
          plantaCodigo: 'P1',
          logradouro: 'Rod. BR-163',
          numero: 'km 12',
          cidade: 'Sorriso',
          uf: 'mt',
          cep: '78890-000',
          latitude: -12.5,
          longitude: -55.7,
        },
        { plantaCodigo: 'P9', logradouro: 'Rua X', cidade: 'Y', uf: 'SP' },
        { plantaCodigo: 'P2', logradouro: 'Av. Central', cidade: 'Cuiabá', uf: 'MT', latitude: 91 },
      ]
        .map((r) => JSON.stringify(r))
        .join('\n'),
    );
    expect(enderecos.status).toMatchObject({ state: 'done', succeeded: 1, failed: 2 });
    expect(enderecos.errors).toEqual([
      { row: 2, field: 'plantaCodigo', message: 'planta P9 não existe' },
      { row: 3, field: 'latitude', message: "field 'latitude' must be <= 90" },
    ]);
    const [e1] = await rows('acme', (tx) => tx.select().from(endereco));
    expect(e1).toMatchObject({ plantaId: p1!.id, uf: 'MT', cep: '78890000', pais: 'BR', latitude: -12.5 });

    const tipos = await importar(
      'acme',
      'TipoVeiculo',
      'tipos.json',
      JSON.stringify([
        {
          codigo: 'BT9',
          descricao: 'Bitrem 9 eixos',
          categoria: 'CAVALO_MECANICO',
          eixos: 9,
          pesoMaximoKg: 74000,
        },
        { codigo: 'TOCO', descricao: 'Caminhão toco', categoria: 'CAMINHAO' },
        { codigo: 'X', descricao: 'Nave', categoria: 'NAVE' },
      ]),
    );
    expect(tipos.status).toMatchObject({ state: 'done', succeeded: 2, failed: 1 });
    expect((tipos.errors[0] as { field: string }).field).toBe('categoria');

    const areas = await importar(
      'acme',
      'Area',
      'areas.csv',
      'plantaCodigo;codigo;descricao;tipo\nP1;PORT;Portaria;PORTARIA\nP1;PATIO;Pátio;ESTACIONAMENTO\nP2;DOCA1;Doca 1;DOCA\nP9;Z;Zero;OUTRO\n',
      { separador: ';' },
    );
    expect(areas.status).toMatchObject({ state: 'done', succeeded: 3, failed: 1 });
    expect(areas.errors).toEqual([{ row: 4, field: 'plantaCodigo', message: 'planta P9 não existe' }]);

    const vagas = await importar(
      'acme',
      'Vaga',
      'vagas.csv',
      'plantaCodigo,areaCodigo,rua,numero,bloqueio,motivoBloqueio\nP1,PATIO,1,1,,\nP1,PATIO,1,2,true,Manutenção\nP1,PATIO,1,3,true,\nP2,PATIO,1,1,,\n',
    );
    expect(vagas.status).toMatchObject({ state: 'done', succeeded: 2, failed: 2 });
    expect(vagas.errors).toEqual([
      { row: 3, field: 'motivoBloqueio', message: 'Informe motivoBloqueio ao bloquear a vaga' },
      { row: 4, field: 'areaCodigo', message: 'área PATIO não existe na planta P2' },
    ]);
    expect(
      (await rows('acme', (tx) => tx.select().from(vaga))).map((v) => [
        v.numero,
        v.bloqueio,
        v.motivoBloqueio,
      ]),
    ).toEqual(
      expect.arrayContaining([
        [1, false, null],
        [2, true, 'Manutenção'],
      ]),
    );

    const circuitos = await importar(
      'acme',
      'Circuito',
      'circuitos.csv',
      'plantaCodigo,codigo,nome,tipoAgendamentoId\nP1,DESCARGA,Descarga de grãos,TA-1\nP1,AMOSTRA,Amostragem,\n',
    );
    expect(circuitos.status).toMatchObject({ state: 'done', succeeded: 2 });
    const sequencias = await importar(
      'acme',
      'SequenciaCircuito',
      'sequencias.csv',
      'plantaCodigo,circuitoCodigo,ordem,areaCodigo,nome,subCircuitoCodigo\n' +
        'P1,DESCARGA,1,PORT,Entrada,\nP1,DESCARGA,2,PATIO,Espera,AMOSTRA\nP1,DESCARGA,3,DOCA1,Doca,\nP1,NADA,1,PORT,X,\n',
    );
    expect(sequencias.status).toMatchObject({ state: 'done', succeeded: 2, failed: 2 });
    // DOCA1 is an area of P2: a step is at an area of its circuit's plant.
    expect(sequencias.errors).toEqual([
      { row: 3, field: 'areaCodigo', message: 'área DOCA1 não existe na planta P1' },
      { row: 4, field: 'circuitoCodigo', message: 'circuito NADA não existe na planta P1' },
    ]);
    const [espera] = await rows('acme', (tx) =>
      tx.select().from(sequenciaCircuito).where(eq(sequenciaCircuito.nome, 'Espera')),
    );
    expect(espera!.subCircuitoId).toBeTruthy();

    const veiculos = await importar(
      'acme',
      'Veiculo',
      'veiculos.csv',
      'placa,tipoVeiculo,renavam\nabc-1d23,CAMINHAO,123456789\nXYZ9999,REBOQUE,\nBAD,CAMINHAO,\n',
    );
    expect(veiculos.status).toMatchObject({ state: 'done', succeeded: 2, failed: 1 });
    expect((await rows('acme', (tx) => tx.select().from(veiculo))).map((v) => v.placa).sort()).toEqual([
      'ABC1D23',
      'XYZ9999',
    ]);
  });

  it('updates by natural key and keeps the yard state of a spot', async () => {
    await rows('acme', (tx) => tx.update(vaga).set({ ocupada: true }).where(eq(vaga.numero, 1)));
    const again = await importar(
      'acme',
      'Vaga',
      'vagas2.csv',
      'plantaCodigo,areaCodigo,rua,numero,descricao\nP1,PATIO,1,1,Primeira\n',
    );
    expect(again.status).toMatchObject({ state: 'done', succeeded: 1 });
    const [v] = await rows('acme', (tx) => tx.select().from(vaga).where(eq(vaga.numero, 1)));
    expect(v).toMatchObject({ descricao: 'Primeira', ocupada: true });
    expect(await rows('acme', (tx) => tx.select().from(vaga))).toHaveLength(2);
  });

  it('keeps tenants apart: codes resolve only in the importing tenant', async () => {
    const areas = await importar(
      'globex',
      'Area',
      'areas.csv',
      'plantaCodigo,codigo,descricao,tipo\nP1,X,X,OUTRO\n',
    );
    expect(areas.status).toMatchObject({ state: 'done', succeeded: 0, failed: 1 });
    expect(await rows('globex', (tx) => tx.select().from(area))).toEqual([]);
    const peek = await t.call(
      'globex',
      'platform/imports/queries/getImport',
      { importJobId: areas.importJobId },
      { auth: keys.acme },
    );
    expect(peek.statusCode).toBe(401);
  });

  it('publishes importAreaEvent when the import starts and when it ends', async () => {
    const { importJobId } = await importar(
      'acme',
      'Area',
      'areas3.csv',
      'plantaCodigo,codigo,descricao,tipo\nP2,BAL,Balança,BALANCA\nP7,Q,Q,OUTRO\n',
    );
    const events = (await outboxOf(t, 'acme')).filter(
      (e) =>
        e.topic === 'yms/patio/importAreaEvent' &&
        (e.payload as { eventpl: { importJobId: string } }).eventpl.importJobId === importJobId,
    );
    expect(events.map((e) => (e.payload as { eventpl: { state: string } }).eventpl.state)).toEqual([
      'running',
      'done',
    ]);
    const done = (events[1]!.payload as { eventpl: Record<string, unknown> }).eventpl;
    expect(done).toMatchObject({
      importJobId,
      state: 'done',
      service: 'yms/patio',
      kind: 'Area',
      formato: 'CSV',
      processed: 2,
      succeeded: 1,
      failed: 1,
      firstErrors: [{ row: 2, field: 'plantaCodigo', message: 'planta P7 não existe' }],
    });
    expect(done.finishedAt).toEqual(expect.any(String));
    // The payload is what the declared event accepts.
    expect(() => validate(Type.Object({ eventpl: ImportEventStatus }), events[1]!.payload)).not.toThrow();
  });
});

describe('the new registers', () => {
  it('serves endereco (one per plant) and tipoVeiculo as entities', async () => {
    const [p] = await seed(t, 'initech', planta, [makePlanta({ codigo: 'E1' })]);
    const post = (e: string, body: unknown) =>
      t.call('initech', `yms/patio/entities/${e}`, body, { auth: keys.initech });
    const created = await post('endereco', {
      plantaId: p!.id,
      logradouro: 'Rua A',
      cidade: 'Rio Verde',
      uf: 'go',
      cep: '75900-000',
    });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json()).toMatchObject({ uf: 'GO', cep: '75900000', pais: 'BR' });
    expect(
      (await post('endereco', { plantaId: p!.id, logradouro: 'Rua B', cidade: 'X', uf: 'GO' })).statusCode,
    ).toBe(409);
    const foreign = await post('endereco', {
      plantaId: '00000000-0000-4000-8000-000000000000',
      logradouro: 'R',
      cidade: 'X',
      uf: 'GO',
    });
    expect(foreign.statusCode).toBe(422);
    const tipo = await post('tipoVeiculo', {
      codigo: 'VAN',
      descricao: 'Van',
      categoria: 'UTILITARIO',
      eixos: 2,
    });
    expect(tipo.json()).toMatchObject({ codigo: 'VAN', ativo: true });
    expect(
      (await post('tipoVeiculo', { codigo: 'VAN', descricao: 'Outra', categoria: 'UTILITARIO' })).statusCode,
    ).toBe(409);
    expect((await post('tipoVeiculo', { codigo: 'Z', descricao: 'Z', categoria: 'NAVE' })).statusCode).toBe(
      400,
    );
    // Another tenant does not see them.
    const other = await t.call('acme', `yms/patio/entities/tipoVeiculo/${tipo.json().id}`, undefined, {
      auth: keys.acme,
      method: 'GET',
    });
    expect(other.statusCode).toBe(404);
  });
});

describe('exports', () => {
  it('exports every register; importing the files into another tenant gives the same records', async () => {
    const order = [
      'Planta',
      'Endereco',
      'TipoVeiculo',
      'Area',
      'Vaga',
      'Circuito',
      'SequenciaCircuito',
      'Veiculo',
    ];
    const sorted = (text: string) => {
      const [header, ...lines] = text.trimEnd().split('\n');
      return [header, ...lines.sort()];
    };
    for (const [i, kind] of order.entries()) {
      const formato = (['CSV', 'JSON', 'JSONL'] as const)[i % 3]!;
      const out = await exportar('acme', kind, { formato });
      expect(out.status.rows, kind).toBeGreaterThan(0);
      const back = await importar('globex', kind, `${kind}.${formato.toLowerCase()}`, out.text);
      expect(back.status, kind).toMatchObject({ state: 'done', failed: 0, succeeded: out.status.rows });
      const mine = await exportar('acme', kind);
      const theirs = await exportar('globex', kind);
      expect(sorted(theirs.text), kind).toEqual(sorted(mine.text));
    }
    expect(await rows('globex', (tx) => tx.select().from(tipoVeiculo))).toHaveLength(2);
  });

  it('writes CSV, JSON and JSONL with the chosen fields and the filter', async () => {
    const csv = await exportar('acme', 'Area', {
      filtro: "plantaCodigo eq 'P1'",
      campos: ['codigo', 'tipo', 'plantaCodigo'],
      separador: ';',
    });
    expect(csv.contentType).toMatch(/^text\/csv/);
    expect(csv.text.split('\n')[0]).toBe('codigo;tipo;plantaCodigo');
    expect(csv.text.trimEnd().split('\n').slice(1).sort()).toEqual([
      'PATIO;ESTACIONAMENTO;P1',
      'PORT;PORTARIA;P1',
    ]);
    expect(csv.status).toMatchObject({ rows: 2, filtro: "plantaCodigo eq 'P1'", formato: 'CSV' });

    const json = await exportar('acme', 'TipoVeiculo', { formato: 'JSON', filtro: 'eixos ge 5' });
    expect(JSON.parse(json.text)).toEqual([
      {
        codigo: 'BT9',
        descricao: 'Bitrem 9 eixos',
        categoria: 'CAVALO_MECANICO',
        eixos: 9,
        pesoMaximoKg: 74000,
        ativo: true,
      },
    ]);
    const none = await exportar('acme', 'TipoVeiculo', { formato: 'JSON', filtro: 'eixos ge 50' });
    expect(JSON.parse(none.text)).toEqual([]);
    const jsonl = await exportar('acme', 'Veiculo', { formato: 'JSONL', campos: ['placa'] });
    expect(
      jsonl.text
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l))
        .sort((a, b) => a.placa.localeCompare(b.placa)),
    ).toEqual([{ placa: 'ABC1D23' }, { placa: 'XYZ9999' }]);
  });

  it('publishes exportAreaEvent with the download URL when the export ends', async () => {
    const { exportJobId } = await exportar('acme', 'Area', { formato: 'JSONL' });
    const events = (await outboxOf(t, 'acme')).filter(
      (e) =>
        e.topic === 'yms/patio/exportAreaEvent' &&
        (e.payload as { eventpl: { exportJobId: string } }).eventpl.exportJobId === exportJobId,
    );
    expect(events.map((e) => (e.payload as { eventpl: { state: string } }).eventpl.state)).toEqual([
      'running',
      'done',
    ]);
    const done = (events[1]!.payload as { eventpl: Record<string, unknown> }).eventpl;
    expect(done).toMatchObject({ exportJobId, state: 'done', kind: 'Area', formato: 'JSONL', rows: 4 });
    const url = new URL(String(done.downloadUrl));
    const file = await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
    expect(file.body.trimEnd().split('\n')).toHaveLength(4);
    expect(() => validate(Type.Object({ eventpl: ExportEventStatus }), events[1]!.payload)).not.toThrow();
  });

  it('exports the yard history: executions, branches, steps and details', async () => {
    const [p] = await seed(t, 'acme', planta, [makePlanta({ codigo: 'H1' })]);
    const [a] = await seed(t, 'acme', area, [makeArea(p!.id)]);
    const [c] = await seed(t, 'acme', circuito, [makeCircuito(p!.id, { codigo: 'HC' })]);
    const [s] = await seed(t, 'acme', sequenciaCircuito, [
      makeSequencia(c!.id, 1, a!.id, { nome: 'Balança' }),
    ]);
    const [v] = await seed(t, 'acme', veiculo, [makeVeiculo({ placa: 'HIS1A23' })]);
    const [m] = await seed(t, 'acme', motorista, [makeMotorista()]);
    const inicio = new Date('2026-01-02T10:00:00Z');
    const [main] = await seed(t, 'acme', execucaoCircuito, [
      {
        circuitoId: c!.id,
        veiculoId: v!.id,
        motoristaId: m!.id,
        situacao: 'FINALIZADO',
        iniciadaEm: inicio,
        finalizadaEm: new Date('2026-01-02T11:30:00Z'),
      },
    ]);
    const [ramo] = await seed(t, 'acme', execucaoCircuito, [
      {
        circuitoId: c!.id,
        situacao: 'FINALIZADO',
        execucaoPaiId: main!.id,
        iniciadaEm: inicio,
        finalizadaEm: new Date('2026-01-02T10:40:00Z'),
      },
    ]);
    await t.db.tenant('acme', async (tx) => {
      await tx.insert(historicoExecucaoCircuito).values([
        {
          tenant: 'acme',
          execucaoCircuitoId: main!.id,
          sequenciaCircuitoId: s!.id,
          acao: 'INICIADA',
          origem: 'MANUAL:op',
          entradaEm: inicio,
        },
        {
          tenant: 'acme',
          execucaoCircuitoId: main!.id,
          acao: 'FINALIZADA',
          origem: 'MANUAL:op',
          entradaEm: new Date('2026-01-02T11:30:00Z'),
        },
      ]);
      await tx.insert(execucaoCircuitoVariavel).values({
        tenant: 'acme',
        execucaoCircuitoId: main!.id,
        alvoId: s!.id,
        chave: 'peso',
        valor: '41230',
        tipoCaptura: 'BALANCA',
        alteradaEm: inicio,
      });
      await tx.insert(execucaoCircuitoImagem).values({
        tenant: 'acme',
        execucaoCircuitoId: main!.id,
        alvoId: s!.id,
        cameraIp: '10.0.0.5',
        imagemUrl: 'https://cam/1.jpg',
        capturadaEm: inicio,
      });
    });

    const execs = await exportar('acme', 'ExecucaoCircuito', { formato: 'JSONL' });
    expect(
      execs.text
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([
      {
        id: main!.id,
        plantaCodigo: 'H1',
        circuitoId: c!.id,
        circuitoCodigo: 'HC',
        veiculoId: v!.id,
        placa: 'HIS1A23',
        motoristaId: m!.id,
        motoristaDocumento: m!.documento,
        situacao: 'FINALIZADO',
        iniciadaEm: '2026-01-02T10:00:00.000Z',
        finalizadaEm: '2026-01-02T11:30:00.000Z',
        createdBy: 'test',
        lastModifiedDate: expect.any(String),
      },
    ]);
    const ramos = await exportar('acme', 'RamoExecucao', {
      formato: 'JSON',
      campos: ['id', 'execucaoPaiId'],
    });
    expect(JSON.parse(ramos.text)).toEqual([{ id: ramo!.id, execucaoPaiId: main!.id }]);
    const passos = await exportar('acme', 'HistoricoExecucaoCircuito', {
      campos: ['acao', 'sequenciaOrdem', 'sequenciaNome', 'entradaEm'],
    });
    expect(passos.text).toBe(
      'acao,sequenciaOrdem,sequenciaNome,entradaEm\nINICIADA,1,Balança,2026-01-02T10:00:00.000Z\nFINALIZADA,,,2026-01-02T11:30:00.000Z\n',
    );
    const detalhes = await exportar('acme', 'ExecucaoCircuitoDetalhe', { formato: 'JSONL' });
    const lines = detalhes.text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          tipo: 'VARIAVEL',
          chave: 'peso',
          valor: '41230',
          tipoCaptura: 'BALANCA',
          em: '2026-01-02T10:00:00.000Z',
        }),
        expect.objectContaining({ tipo: 'IMAGEM', cameraIp: '10.0.0.5', imagemUrl: 'https://cam/1.jpg' }),
      ]),
    );
    const imagens = await exportar('acme', 'ExecucaoCircuitoDetalhe', {
      filtro: "tipo eq 'IMAGEM'",
      campos: ['tipo'],
    });
    expect(imagens.text).toBe('tipo\nIMAGEM\n');
  });

  it('answers 400 for a bad filter or field and 404 for another tenant’s export, changing nothing', async () => {
    const before = await tableCounts(t.db);
    for (const config of [
      { filtro: 'codigo eq' },
      { filtro: "nada eq 'x'" },
      { campos: ['codigo', 'senha'] },
      { formato: 'XML' },
    ]) {
      const res = await t.call('acme', 'yms/patio/actions/exportArea', { config }, { auth: keys.acme });
      expect(res.statusCode, JSON.stringify(config)).toBe(400);
      expect(res.json().reason).toBe('BAD_REQUEST');
    }
    // A literal the database cannot bind (2^31 against the int4 order of a step) is refused now, not
    // found out by the export's job.
    const wide = await t.call(
      'acme',
      'yms/patio/actions/exportHistoricoExecucaoCircuito',
      { config: { filtro: 'sequenciaOrdem eq 2147483648' } },
      { auth: keys.acme },
    );
    expect(wide.statusCode, wide.body).toBe(400);
    expect(wide.json()).toEqual({
      message: expect.stringMatching(/^Invalid field 'filtro': /),
      reason: 'BAD_REQUEST',
    });
    expect(await tableCounts(t.db)).toEqual(before);
    const { exportJobId } = await exportar('acme', 'Planta');
    const other = await t.call(
      'globex',
      'platform/exports/queries/getExport',
      { exportJobId },
      { auth: keys.globex },
    );
    expect(other.statusCode).toBe(404);
  });

  it('takes import and export status events reported by an outside system', async () => {
    const ok = await t.call(
      'acme',
      'yms/patio/events/exportVeiculoEvent',
      { eventpl: { exportJobId: 'erp-42', state: 'done', rows: 10, arquivo: 'erp/veiculos.csv' } },
      { auth: keys.acme },
    );
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toBe('');
    const [last] = (await outboxOf(t, 'acme')).slice(-1);
    expect(last).toMatchObject({
      topic: 'yms/patio/exportVeiculoEvent',
      payload: { eventpl: { exportJobId: 'erp-42' } },
    });
    const bad = await t.call(
      'acme',
      'yms/patio/events/importRamoExecucaoEvent',
      { eventpl: { state: 'done' } },
      { auth: keys.acme },
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/importJobId/);
  });
});

// The import fields of the history kinds: what is compared between tenants (ids of registers,
// audit fields and the history's insertion counter differ).
const CAMPOS_HISTORIA: Record<string, string[]> = {
  ExecucaoCircuito: [
    'id',
    'plantaCodigo',
    'circuitoCodigo',
    'agendaId',
    'placa',
    'motoristaDocumento',
    'situacao',
    'iniciadaEm',
    'finalizadaEm',
    'motivoCancelamento',
  ],
  RamoExecucao: [
    'id',
    'execucaoPaiId',
    'plantaCodigo',
    'circuitoCodigo',
    'situacao',
    'iniciadaEm',
    'finalizadaEm',
  ],
  HistoricoExecucaoCircuito: [
    'id',
    'execucaoCircuitoId',
    'sequenciaOrdem',
    'sequenciaNome',
    'acao',
    'origem',
    'entradaEm',
    'saidaEm',
  ],
  ExecucaoCircuitoDetalhe: [
    'id',
    'execucaoCircuitoId',
    'tipo',
    'alvoId',
    'chave',
    'valor',
    'tipoCaptura',
    'rotina',
    'cameraIp',
    'imagemUrl',
    'em',
  ],
};
const HISTORIA = Object.keys(CAMPOS_HISTORIA);
const sortedLines = (text: string) => {
  const [header, ...lines] = text.trimEnd().split('\n');
  return [header, ...lines.sort()];
};

describe('imports of the yard history', () => {
  it('moves all 12 kinds to another tenant: the same records, history with its ids', async () => {
    keys.umbrella = await t.tenant('umbrella');
    const order = [
      'Planta',
      'Endereco',
      'TipoVeiculo',
      'Area',
      'Vaga',
      'Circuito',
      'SequenciaCircuito',
      'Veiculo',
      'ExecucaoCircuito',
      'RamoExecucao',
      'HistoricoExecucaoCircuito',
      'ExecucaoCircuitoDetalhe',
    ];
    const files: Record<string, { text: string; formato: string; rows: number }> = {};
    const before: Record<string, unknown[]> = {};
    for (const [i, kind] of order.entries()) {
      const formato = (['CSV', 'JSON', 'JSONL'] as const)[i % 3]!;
      const out = await exportar('acme', kind, { formato });
      expect(out.status.rows, kind).toBeGreaterThan(0);
      files[kind] = { text: out.text, formato, rows: out.status.rows };
      before[kind] = sortedLines((await exportar('acme', kind, { campos: CAMPOS_HISTORIA[kind] })).text);
    }
    // Drivers are not a kind of §4.3: the target tenant registers them (same CPF).
    const drivers = await rows('acme', (tx) => tx.select().from(motorista));
    await seed(
      t,
      'umbrella',
      motorista,
      drivers.map((d) => makeMotorista({ documento: d.documento, nome: d.nome })),
    );
    const importAll = async () => {
      const out: Record<string, Awaited<ReturnType<typeof importar>>> = {};
      for (const kind of order) {
        const f = files[kind]!;
        out[kind] = await importar('umbrella', kind, `${kind}.${f.formato.toLowerCase()}`, f.text);
      }
      return out;
    };

    // Ids are unique within a tenant only (docs/platform.md "Storage and tenant isolation"): while
    // acme still holds its history, the records move with their ids all the same, and acme's stay
    // as they were.
    const history = [
      execucaoCircuito,
      historicoExecucaoCircuito,
      execucaoCircuitoVariavel,
      execucaoCircuitoImagem,
    ];
    const historyOf = (tenant: string) =>
      Promise.all(history.map(async (table) => (await rows(tenant, (tx) => tx.select().from(table))).length));
    const acmeHistory = await historyOf('acme');
    const second = await importAll();
    for (const kind of order) {
      expect(second[kind]!.status, kind).toMatchObject({
        state: 'done',
        failed: 0,
        succeeded: files[kind]!.rows,
      });
      const theirs = await exportar('umbrella', kind, { campos: CAMPOS_HISTORIA[kind] });
      expect(sortedLines(theirs.text), kind).toEqual(before[kind]);
      const ours = await exportar('acme', kind, { campos: CAMPOS_HISTORIA[kind] });
      expect(sortedLines(ours.text), kind).toEqual(before[kind]);
    }
    expect(await historyOf('acme')).toEqual(acmeHistory);
    expect(await historyOf('umbrella')).toEqual(acmeHistory);
    const [exec] = await rows('umbrella', (tx) =>
      tx.select().from(execucaoCircuito).where(isNull(execucaoCircuito.execucaoPaiId)),
    );
    expect(exec).toMatchObject({ sequenciaAtualId: null, composicaoVeiculoId: null });
    const [v] = await rows('umbrella', (tx) =>
      tx.select().from(veiculo).where(eq(veiculo.id, exec!.veiculoId!)),
    );
    expect(v?.placa).toBe('HIS1A23');

    // Imported again: the same records, updated, nothing doubled; the jobs announced themselves.
    const patio = async () =>
      Object.entries(await tableCounts(t.db)).filter(([table]) => table.startsWith('patio_'));
    const counts = await patio();
    const third = await importAll();
    for (const kind of HISTORIA) expect(third[kind]!.status, kind).toMatchObject({ failed: 0 });
    expect(await patio()).toEqual(counts);
    const topics = (await outboxOf(t, 'umbrella')).map((e) => e.topic);
    for (const kind of HISTORIA) expect(topics, kind).toContain(`yms/patio/import${kind}Event`);
  });

  it('refuses running executions, unknown plates, missing parents, reversed times and other tenants’ records', async () => {
    const [p] = await seed(t, 'initech', planta, [makePlanta({ codigo: 'R1' })]);
    const [a] = await seed(t, 'initech', area, [makeArea(p!.id)]);
    const [c] = await seed(t, 'initech', circuito, [makeCircuito(p!.id, { codigo: 'RC' })]);
    await seed(t, 'initech', sequenciaCircuito, [makeSequencia(c!.id, 1, a!.id)]);
    const [v] = await seed(t, 'initech', veiculo, [makeVeiculo({ placa: 'RUN1A23' })]);
    const [running] = await seed(t, 'initech', execucaoCircuito, [
      {
        circuitoId: c!.id,
        veiculoId: v!.id,
        situacao: 'EXECUTANDO',
        iniciadaEm: new Date('2026-02-01T08:00:00Z'),
      },
    ]);
    const [umbrellaExec] = await rows('umbrella', (tx) => tx.select().from(execucaoCircuito).limit(1));
    const ok = crypto.randomUUID();
    const base = {
      plantaCodigo: 'R1',
      circuitoCodigo: 'RC',
      situacao: 'FINALIZADO',
      iniciadaEm: '2026-01-05T10:00:00Z',
      finalizadaEm: '2026-01-05T11:00:00Z',
    };
    const execs = [
      { ...base, id: ok, placa: 'run-1a23' },
      { ...base, id: crypto.randomUUID(), situacao: 'EXECUTANDO' },
      { ...base, id: crypto.randomUUID(), placa: 'ZZZ9Z99' },
      { ...base, id: crypto.randomUUID(), finalizadaEm: '2026-01-05T09:00:00Z' },
      { ...base, id: crypto.randomUUID(), motoristaDocumento: '111.444.777-35' },
      { ...base, id: crypto.randomUUID(), plantaCodigo: 'H1', circuitoCodigo: 'HC' },
      { ...base, id: running!.id, situacao: 'CANCELADO' },
    ];
    const before = await tableCounts(t.db);
    const r1 = await importar(
      'initech',
      'ExecucaoCircuito',
      'e.jsonl',
      execs.map((e) => JSON.stringify(e)).join('\n'),
    );
    expect(r1.status).toMatchObject({ state: 'done', succeeded: 1, failed: 6 });
    expect(r1.errors).toEqual([
      { row: 2, field: 'situacao', message: expect.stringContaining('EXECUTANDO') },
      { row: 3, field: 'placa', message: 'veículo ZZZ9Z99 não existe' },
      { row: 4, field: 'finalizadaEm', message: 'finalizadaEm anterior a iniciadaEm' },
      { row: 5, field: 'motoristaDocumento', message: 'motorista 11144477735 não existe' },
      { row: 6, field: 'circuitoCodigo', message: 'circuito HC não existe na planta H1' },
      { row: 7, field: 'id', message: expect.stringContaining('em andamento') },
    ]);
    expect((await tableCounts(t.db)).patio_execucao_circuito).toBe(before.patio_execucao_circuito! + 1);
    const [still] = await rows('initech', (tx) =>
      tx.select().from(execucaoCircuito).where(eq(execucaoCircuito.id, running!.id)),
    );
    expect(still).toMatchObject({ situacao: 'EXECUTANDO', finalizadaEm: null });

    const ramos = await importar(
      'initech',
      'RamoExecucao',
      'r.jsonl',
      [
        { ...base, id: crypto.randomUUID(), execucaoPaiId: crypto.randomUUID() },
        { ...base, id: crypto.randomUUID(), execucaoPaiId: running!.id },
        { ...base, id: crypto.randomUUID(), execucaoPaiId: umbrellaExec!.id },
        { ...base, id: ok, execucaoPaiId: ok },
        { ...base, id: crypto.randomUUID(), execucaoPaiId: ok },
      ]
        .map((e) => JSON.stringify(e))
        .join('\n'),
    );
    expect(ramos.status).toMatchObject({ succeeded: 1, failed: 4 });
    expect(ramos.errors).toEqual([
      { row: 1, field: 'execucaoPaiId', message: expect.stringContaining('não existe') },
      { row: 2, field: 'execucaoPaiId', message: expect.stringContaining('em andamento') },
      { row: 3, field: 'execucaoPaiId', message: expect.stringContaining('não existe') },
      { row: 4, field: 'id', message: expect.stringContaining('não é um ramo') },
    ]);

    const passos = await importar(
      'initech',
      'HistoricoExecucaoCircuito',
      'h.csv',
      [
        'id,execucaoCircuitoId,sequenciaOrdem,acao,origem,entradaEm,saidaEm',
        `${crypto.randomUUID()},${ok},1,INICIADA,MANUAL:op,2026-01-05T10:00:00Z,2026-01-05T10:30:00Z`,
        `${crypto.randomUUID()},${ok},7,AVANCOU,MANUAL:op,2026-01-05T10:30:00Z,`,
        `${crypto.randomUUID()},${running!.id},1,INICIADA,MANUAL:op,2026-01-05T10:00:00Z,`,
        `${crypto.randomUUID()},${umbrellaExec!.id},,FINALIZADA,MANUAL:op,2026-01-05T10:00:00Z,`,
        `${crypto.randomUUID()},${ok},,PAROU,MANUAL:op,2026-01-05T10:00:00Z,`,
      ].join('\n'),
    );
    expect(passos.status).toMatchObject({ succeeded: 1, failed: 4 });
    expect(passos.errors).toEqual([
      { row: 2, field: 'sequenciaOrdem', message: 'o circuito da execução não tem a sequência 7' },
      { row: 3, field: 'execucaoCircuitoId', message: expect.stringContaining('em andamento') },
      { row: 4, field: 'execucaoCircuitoId', message: expect.stringContaining('não existe') },
      { row: 5, field: 'acao', message: expect.stringContaining('acao') },
    ]);

    const detalhes = await importar(
      'initech',
      'ExecucaoCircuitoDetalhe',
      'd.jsonl',
      [
        {
          id: crypto.randomUUID(),
          execucaoCircuitoId: ok,
          tipo: 'VARIAVEL',
          alvoId: 'x',
          chave: 'peso',
          valor: '1',
          em: base.iniciadaEm,
        },
        {
          id: crypto.randomUUID(),
          execucaoCircuitoId: ok,
          tipo: 'VARIAVEL',
          alvoId: 'x',
          chave: 'peso',
          valor: '2',
          em: base.iniciadaEm,
        },
        {
          id: crypto.randomUUID(),
          execucaoCircuitoId: running!.id,
          tipo: 'VARIAVEL',
          alvoId: 'x',
          chave: 'k',
          valor: '1',
          em: base.iniciadaEm,
        },
        { id: crypto.randomUUID(), execucaoCircuitoId: ok, tipo: 'IMAGEM', alvoId: 'x', em: base.iniciadaEm },
        {
          id: crypto.randomUUID(),
          execucaoCircuitoId: ok,
          tipo: 'IMAGEM',
          alvoId: 'x',
          cameraIp: '1.2.3.4',
          imagemUrl: 'https://c/1.jpg',
          em: base.iniciadaEm,
        },
      ]
        .map((e) => JSON.stringify(e))
        .join('\n'),
    );
    expect(detalhes.status).toMatchObject({ succeeded: 3, failed: 2 });
    expect(detalhes.errors).toEqual([
      { row: 3, field: 'execucaoCircuitoId', message: expect.stringContaining('em andamento') },
      { row: 4, field: 'cameraIp', message: 'Informe cameraIp de uma IMAGEM' },
    ]);
    const vars = await rows('initech', (tx) =>
      tx.select().from(execucaoCircuitoVariavel).where(eq(execucaoCircuitoVariavel.execucaoCircuitoId, ok)),
    );
    expect(vars.map((x) => x.valor)).toEqual(['2']);
    // Nothing of umbrella's history was touched by initech's files.
    const [u] = await rows('umbrella', (tx) =>
      tx.select().from(execucaoCircuito).where(eq(execucaoCircuito.id, umbrellaExec!.id)),
    );
    expect(u).toEqual(umbrellaExec);
  });
});
