import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../../../test/harness.ts';
import { makeArea, makePlanta, patioCall, seed } from './fixtures.ts';
import { area, planta } from './tables/plantas.ts';

// Circuits and their sequences through the entity routes (spec 000 §2.3; docs/patio.md
// "Circuits"): a sequence is a child of its circuit and happens at an area of the circuit's plant.

let t: TestApp;
let acme: ReturnType<typeof patioCall>;
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await testApp();
  acme = patioCall(t, 'acme', await t.tenant('acme'));
  const [p, outra] = await seed(t, 'acme', planta, [makePlanta(), makePlanta()]);
  ids.planta = p!.id;
  ids.outraPlanta = outra!.id;
  const [portaria, doca, alheia] = await seed(t, 'acme', area, [
    makeArea(p!.id, { tipo: 'PORTARIA' }),
    makeArea(p!.id, { tipo: 'DOCA' }),
    makeArea(outra!.id),
  ]);
  ids.portaria = portaria!.id;
  ids.doca = doca!.id;
  ids.alheia = alheia!.id;
});

describe('circuito', () => {
  it('is created active, with its appointment type as a string; the code is unique in the plant', async () => {
    const res = await acme('entities/circuito', {
      plantaId: ids.planta,
      tipoAgendamentoId: 'DESCARGA-GRAOS',
      codigo: 'DESC',
      nome: 'Descarga de grãos',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      ativo: true,
      tipoAgendamentoId: 'DESCARGA-GRAOS',
      nome: 'Descarga de grãos',
    });
    ids.circuito = res.json().id;
    const dup = await acme('entities/circuito', { plantaId: ids.planta, codigo: 'DESC', nome: 'Outro' });
    expect(dup.statusCode).toBe(409);
    const semPlanta = await acme('entities/circuito', {
      plantaId: '00000000-0000-4000-8000-000000000001',
      codigo: 'X',
      nome: 'X',
    });
    expect(semPlanta.statusCode).toBe(422);
    expect((await acme('entities/circuito', { plantaId: ids.planta, codigo: 'Y' })).statusCode).toBe(400);
  });

  it('takes sequences at areas of its plant, listed under it in ordem', async () => {
    const res = await acme(`entities/circuito/${ids.circuito}/sequencias`, [
      { ordem: 2, areaId: ids.doca, nome: 'Doca', nomeComando: 'alocarVaga' },
      { ordem: 1, areaId: ids.portaria, nome: 'Portaria', nomeCondicao: 'veiculoNaoBloqueado' },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()[0]).toMatchObject({ circuitoId: ids.circuito, nomeComando: 'alocarVaga' });
    const list = await acme(`entities/circuito/${ids.circuito}/sequencias`, undefined, {
      method: 'GET',
      query: { orderby: 'ordem asc' },
    });
    expect(list.json().map((s: { nome: string }) => s.nome)).toEqual(['Portaria', 'Doca']);
  });

  it("refuses a sequence at another plant's area (422 naming it), an unknown area, a repeated ordem", async () => {
    const alheia = await acme(`entities/circuito/${ids.circuito}/sequencias`, [
      { ordem: 3, areaId: ids.alheia, nome: 'Fora' },
    ]);
    expect(alheia.statusCode).toBe(422);
    expect(alheia.json().message).toContain(ids.alheia);
    expect(alheia.json().message).toContain(ids.planta);
    const inexistente = await acme(`entities/circuito/${ids.circuito}/sequencias`, [
      { ordem: 3, areaId: '00000000-0000-4000-8000-000000000002', nome: 'Fora' },
    ]);
    expect(inexistente.statusCode).toBe(422);
    const repetida = await acme(`entities/circuito/${ids.circuito}/sequencias`, [
      { ordem: 1, areaId: ids.doca, nome: 'De novo' },
    ]);
    expect(repetida.statusCode).toBe(409);
    const list = await acme(`entities/circuito/${ids.circuito}/sequencias`, undefined, { method: 'GET' });
    expect(list.json()).toHaveLength(2);
  });

  it('moving a sequence to an area of another plant is 422 too (PATCH)', async () => {
    const list = await acme(`entities/circuito/${ids.circuito}/sequencias`, undefined, { method: 'GET' });
    const seq = list.json()[0];
    const res = await acme(
      `entities/circuito/${ids.circuito}/sequencias/${seq.id}`,
      { areaId: ids.alheia },
      { method: 'PATCH' },
    );
    expect(res.statusCode).toBe(422);
  });

  it('cannot move to another plant while it has sequences', async () => {
    const res = await acme(
      `entities/circuito/${ids.circuito}`,
      { plantaId: ids.outraPlanta },
      { method: 'PATCH' },
    );
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toMatch(/sequências/);
  });
});
