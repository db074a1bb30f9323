import { describe, expect, it } from 'vitest';
import { itemSegueOPedido, type QuantidadesItem, situacaoItem, situacaoPedido } from './regras.ts';
import type { SituacaoPedidoVenda } from './situacoes.ts';

// The situation rules of docs/int_pedidovenda.md "Situations", as tables.

const item = (
  aberta: number,
  cancelada: number,
  atendida: number,
  situacaoPedidoVenda: SituacaoPedidoVenda = 'AbertoTotal',
): QuantidadesItem => ({
  quantidade: 10,
  quantidadeAberta: aberta,
  quantidadeCancelada: cancelada,
  quantidadeAtendida: atendida,
  situacaoPedidoVenda,
});

describe('situacaoItem', () => {
  it.each([
    [item(10, 0, 0), 'AbertoTotal'],
    [item(6, 4, 0), 'AbertoParcial'],
    [item(4, 0, 6), 'AbertoParcial'],
    [item(0, 4, 6), 'PreparacaoAnaliseOuNf'],
    [item(0, 10, 0), 'Cancelado'],
    [item(0, 0, 10, 'AbertoParcial'), 'PreparacaoAnaliseOuNf'],
    [item(4, 0, 6, 'Suspenso'), 'Suspenso'],
    [item(0, 0, 10, 'AguardandoIntegracaoWms'), 'AguardandoIntegracaoWms'],
  ] as const)('%j → %s', (i, expected) => {
    expect(situacaoItem(i)).toBe(expected);
  });
});

describe('situacaoPedido', () => {
  const s = (...xs: SituacaoPedidoVenda[]) => xs.map((situacaoPedidoVenda) => ({ situacaoPedidoVenda }));
  it.each([
    ['AbertoTotal', s('AbertoTotal', 'AbertoTotal'), 'AbertoTotal'],
    ['AbertoTotal', s('AbertoTotal', 'AbertoParcial'), 'AbertoParcial'],
    ['AbertoTotal', s('AbertoTotal', 'Cancelado'), 'AbertoParcial'],
    ['AbertoParcial', s('Cancelado', 'Cancelado'), 'Cancelado'],
    ['AguardandoIntegracaoWms', s('Cancelado', 'Cancelado'), 'Cancelado'],
    ['AbertoParcial', s('PreparacaoAnaliseOuNf', 'Cancelado'), 'PreparacaoAnaliseOuNf'],
    ['PreparacaoAnaliseOuNf', s('AbertoParcial', 'PreparacaoAnaliseOuNf'), 'AbertoParcial'],
    ['Suspenso', s('AbertoParcial'), 'Suspenso'],
    ['EmTransmissao', s('AbertoTotal'), 'EmTransmissao'],
    ['Cancelado', s('AbertoTotal'), 'Cancelado'],
    ['AbertoParcial', [], 'AbertoParcial'],
  ] as const)('%s with items %j → %s', (atual, itens, expected) => {
    expect(situacaoPedido(atual, itens)).toBe(expected);
  });
});

describe('itemSegueOPedido', () => {
  it.each([
    [item(10, 0, 0), 'AguardandoIntegracaoWms', 'AguardandoIntegracaoWms'],
    [item(0, 10, 0, 'Cancelado'), 'AguardandoIntegracaoWms', 'Cancelado'],
    [item(6, 4, 0, 'Suspenso'), 'AbertoTotal', 'AbertoParcial'],
    [item(10, 0, 0, 'EmTransmissao'), 'AbertoParcial', 'AbertoTotal'],
  ] as const)('%j, order to %s → %s', (i, pedido, expected) => {
    expect(itemSegueOPedido(i, pedido)).toBe(expected);
  });
});
