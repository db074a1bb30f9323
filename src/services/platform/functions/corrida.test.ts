import { beforeAll, describe, expect, it } from 'vitest';
import { aoMesmoTempo, bancoDeCorrida, CONCORRENTES, RODADAS, umVencedor } from '../../../../test/corrida.ts';
import { type TestApp, testApp } from '../../../../test/harness.ts';
import { type Call, functionsCall, makeFunction } from './fixtures.ts';

// The contended decisions of platform/functions (docs/functions.md "Races"): version numbers are
// taken under the function row's lock (its counter), and one function per primitive is a unique
// key. On PostgreSQL every request of a round has a connection of its own and they truly race; on
// PGlite they run one after the other and the same answers hold.

let t: TestApp;
let acme: Call;

beforeAll(async () => {
  t = await testApp({ db: await bancoDeCorrida() });
  acme = functionsCall(t, 'acme', await t.tenant('acme'));
});

describe('concurrent uploads of one function', () => {
  it(`numbers ${CONCORRENTES} uploads at once 1..${CONCORRENTES}, none twice; the highest is current`, async () => {
    for (let rodada = 0; rodada < RODADAS; rodada++) {
      const name = `versoes-${rodada}`;
      const primitive = [
        'pesquisarPais',
        'listarPaises',
        'pesquisarEstado',
        'pesquisarCidade',
        'pesquisarEndereco',
      ][rodada]!;
      await makeFunction(acme, name, `erp_agr/com_comum/${primitive}`);
      const answers = await aoMesmoTempo(
        Array.from(
          { length: CONCORRENTES },
          (_, i) => () =>
            acme('actions/uploadFunctionCode', {
              functionName: name,
              code: `function handler() { return ${i} }`,
            }),
        ),
      );
      for (const a of answers) expect(a.statusCode, a.body).toBe(200);
      const versions = answers.map((a) => a.json().version as number).sort((x, y) => x - y);
      expect(versions).toEqual(Array.from({ length: CONCORRENTES }, (_, i) => i + 1));
      const [domainName, serviceName] = ['erp_agr', 'com_comum'];
      const fn = (await acme('queries/getFunction', { name: primitive, domainName, serviceName })).json();
      expect(fn.currentVersion).toBe(CONCORRENTES);
      expect(fn.versions.map((v: { version: number }) => v.version)).toEqual(versions);
      // The current version is the code uploaded as it: its answer is the i of that upload.
      const winner = answers.find((a) => a.json().version === CONCORRENTES)!;
      const i = answers.indexOf(winner);
      const ran = await acme('actions/invokeFunction', { name: primitive, domainName, serviceName });
      expect(ran.json().output).toBe(i);
    }
  });
});

describe('concurrent functions for one primitive', () => {
  it('binds exactly one: the others are 409', async () => {
    const primitives = [
      'pesquisarFornecedor',
      'pesquisarCliente',
      'pesquisarRepresentante',
      'pesquisarProdutor',
      'pesquisarVinculo',
    ];
    for (let rodada = 0; rodada < RODADAS; rodada++) {
      const answers = await aoMesmoTempo(
        Array.from(
          { length: CONCORRENTES },
          (_, i) => () =>
            acme('entities/function', {
              name: `f-${rodada}-${i}`,
              domainName: 'erp_agr',
              serviceName: 'com_comum',
              primitiveName: primitives[rodada],
            }),
        ),
      );
      umVencedor(answers, { status: 409, mensagem: /./ });
    }
  });
});
