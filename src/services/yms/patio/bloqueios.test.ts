import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../../../test/harness.ts';
import { makeVeiculo, patioCall, seed } from './fixtures.ts';
import { composicaoVeiculo, motorista, veiculo } from './tables/veiculos.ts';

// Blocking vehicles, drivers and compositions (spec 000 §4.2; docs/patio.md "Blocking").

let t: TestApp;
let acme: ReturnType<typeof patioCall>;
let globex: ReturnType<typeof patioCall>;
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await testApp();
  acme = patioCall(t, 'acme', await t.tenant('acme'));
  globex = patioCall(t, 'globex', await t.tenant('globex'));
  const [cavalo, reboque, outro] = await seed(t, 'acme', veiculo, [
    makeVeiculo({ tipoVeiculo: 'CAVALO_MECANICO' }),
    makeVeiculo({ tipoVeiculo: 'SEMIRREBOQUE' }),
    makeVeiculo(),
  ]);
  ids.cavalo = cavalo!.id;
  ids.reboque = reboque!.id;
  ids.outro = outro!.id;
  const [m] = await seed(t, 'acme', motorista, [{ documento: '12345678909', nome: 'Ana' }]);
  ids.motorista = m!.id;
  const [c] = await seed(t, 'acme', composicaoVeiculo, [{ cavaloId: ids.cavalo, reboqueIds: [ids.reboque] }]);
  ids.composicao = c!.id;
  const [gv] = await seed(t, 'globex', veiculo, [makeVeiculo()]);
  ids.globexVeiculo = gv!.id;
});

const composicao = async () => {
  const res = await acme(`entities/composicaoVeiculo/${ids.composicao}`, undefined, { method: 'GET' });
  return res.json() as { bloqueado: boolean; motivoBloqueio?: string };
};

describe('bloquearVeiculo / desbloquearVeiculo', () => {
  it('blocks with the reason, and the compositions it is part of become blocked', async () => {
    const res = await acme('actions/bloquearVeiculo', { veiculoId: ids.reboque, motivo: '  pneu careca ' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().veiculo).toMatchObject({
      id: ids.reboque,
      bloqueado: true,
      motivoBloqueio: 'pneu careca',
    });
    expect(await composicao()).toMatchObject({ bloqueado: true });
  });

  it('blocking again replaces the reason (idempotent, 200)', async () => {
    const res = await acme('actions/bloquearVeiculo', {
      veiculoId: ids.reboque,
      motivo: 'documentação vencida',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().veiculo.motivoBloqueio).toBe('documentação vencida');
  });

  it('a blank reason is 400 and changes nothing', async () => {
    const res = await acme('actions/bloquearVeiculo', { veiculoId: ids.outro, motivo: '   ' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/motivo/);
    const v = await acme(`entities/veiculo/${ids.outro}`, undefined, { method: 'GET' });
    expect(v.json().bloqueado).toBe(false);
  });

  it('unblocks, clearing the reason, and the composition with it; again is still 200', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await acme('actions/desbloquearVeiculo', { veiculoId: ids.reboque });
      expect(res.statusCode).toBe(200);
      expect(res.json().veiculo).toMatchObject({ bloqueado: false });
      expect(res.json().veiculo.motivoBloqueio).toBeUndefined();
    }
    expect(await composicao()).toMatchObject({ bloqueado: false });
  });

  it("is 404 for an unknown vehicle and another tenant's, which stays unblocked", async () => {
    const res = await acme('actions/bloquearVeiculo', { veiculoId: ids.globexVeiculo, motivo: 'x' });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(`Veículo ${ids.globexVeiculo} não encontrado`);
    const own = await globex(`entities/veiculo/${ids.globexVeiculo}`, undefined, { method: 'GET' });
    expect(own.json().bloqueado).toBe(false);
  });
});

describe('bloquearMotorista / desbloquearMotorista', () => {
  it('blocks, re-blocks with a new reason, unblocks', async () => {
    let res = await acme('actions/bloquearMotorista', { motoristaId: ids.motorista, motivo: 'CNH vencida' });
    expect(res.json().motorista).toMatchObject({
      bloqueado: true,
      motivoBloqueio: 'CNH vencida',
      nome: 'Ana',
    });
    res = await acme('actions/bloquearMotorista', { motoristaId: ids.motorista, motivo: 'sem EPI' });
    expect(res.json().motorista.motivoBloqueio).toBe('sem EPI');
    res = await acme('actions/desbloquearMotorista', { motoristaId: ids.motorista });
    expect(res.json().motorista).toMatchObject({ bloqueado: false });
    expect(res.json().motorista.motivoBloqueio).toBeUndefined();
  });

  it('is 404 from another tenant', async () => {
    const res = await globex('actions/bloquearMotorista', { motoristaId: ids.motorista, motivo: 'x' });
    expect(res.statusCode).toBe(404);
  });
});

describe('atualizarBloqueioComposicaoVeiculo', () => {
  const atualizar = (motivo?: string) =>
    acme('actions/atualizarBloqueioComposicaoVeiculo', {
      composicaoVeiculoId: ids.composicao,
      ...(motivo === undefined ? {} : { motivo }),
    });

  it('a reason blocks the composition; without it, it unblocks', async () => {
    let res = await atualizar('lacre rompido');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ statusComposicaoVeiculo: true });
    expect(await composicao()).toMatchObject({ bloqueado: true, motivoBloqueio: 'lacre rompido' });
    res = await atualizar();
    expect(res.json()).toEqual({ statusComposicaoVeiculo: false });
    expect((await composicao()).motivoBloqueio).toBeUndefined();
  });

  it('stays blocked without a reason while a part is blocked, and unblocks with the part', async () => {
    await acme('actions/bloquearVeiculo', { veiculoId: ids.cavalo, motivo: 'freio' });
    expect((await atualizar('')).json()).toEqual({ statusComposicaoVeiculo: true });
    await acme('actions/desbloquearVeiculo', { veiculoId: ids.cavalo });
    expect(await composicao()).toMatchObject({ bloqueado: false });
  });

  it('keeps its own reason when a part is unblocked', async () => {
    await atualizar('aguardando vistoria');
    await acme('actions/bloquearVeiculo', { veiculoId: ids.reboque, motivo: 'pneu' });
    await acme('actions/desbloquearVeiculo', { veiculoId: ids.reboque });
    expect(await composicao()).toMatchObject({ bloqueado: true, motivoBloqueio: 'aguardando vistoria' });
  });

  it("is 404 for another tenant's composition", async () => {
    const res = await globex('actions/atualizarBloqueioComposicaoVeiculo', {
      composicaoVeiculoId: ids.composicao,
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(`Composição de veículo ${ids.composicao} não encontrada`);
  });
});
