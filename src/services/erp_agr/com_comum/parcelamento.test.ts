import { describe, expect, it } from 'vitest';
import { addDays, diaUtil, dividir, parcelar } from './parcelamento.ts';

// The installment engine as a table: splits to the cent, due dates past weekends and holidays.

describe('dividir', () => {
  it.each([
    [100, [1, 1, 1], [33.33, 33.33, 33.34]],
    [0.01, [1, 1, 1], [0, 0, 0.01]],
    [0.02, [1, 1, 1], [0, 0.01, 0.01]],
    [0.99, Array(10).fill(1), [0.09, ...Array(9).fill(0.1)]],
    [1000.07, Array(12).fill(1), [83.33, ...Array(11).fill(83.34)]],
    [10, [0, 1, 0], [0, 10, 0]],
    [1000, [30, 30, 40], [300, 300, 400]],
    [99.99, [50, 50], [49.99, 50]],
    [10, [1], [10]],
    [
      1234567.89,
      [1, 1, 1, 1, 1, 1, 1],
      [176366.84, 176366.84, 176366.84, 176366.84, 176366.84, 176366.84, 176366.85],
    ],
  ])('%d by %j is %j', (valor, pesos, expected) => {
    const parts = dividir(valor, pesos);
    expect(parts).toEqual(expected);
    expect(Math.round(parts.reduce((a, b) => a + b, 0) * 100)).toBe(Math.round(valor * 100));
  });

  it('adds up to the cent for any value and plan', () => {
    for (let i = 0; i < 500; i++) {
      const valor = Math.round(Math.random() * 1e8) / 100;
      const pesos = Array.from({ length: 1 + (i % 13) }, () => 1 + Math.random() * 50);
      const parts = dividir(valor, pesos);
      expect(parts.every((p) => p >= 0)).toBe(true);
      expect(Math.round(parts.reduce((a, b) => a + b * 100, 0))).toBe(Math.round(valor * 100));
      // Each share is its exact part to less than a cent.
      const total = pesos.reduce((a, b) => a + b, 0);
      parts.forEach((p, k) => {
        expect(Math.abs(p * 100 - (Math.round(valor * 100) * pesos[k]!) / total)).toBeLessThan(1 + 1e-6);
      });
    }
  });
});

describe('diaUtil', () => {
  const feriados = new Set(['2026-12-25', '2026-12-28']);
  it.each([
    ['2026-11-25', '2026-11-25'], // a Wednesday
    ['2026-11-28', '2026-11-30'], // Saturday → Monday
    ['2026-11-29', '2026-11-30'], // Sunday → Monday
    ['2026-12-25', '2026-12-29'], // Friday holiday, weekend, Monday holiday → Tuesday
  ])('%s is due on %s', (date, expected) => {
    expect(diaUtil(date, feriados)).toBe(expected);
  });

  it('adds days across months and leap years', () => {
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-12-31', 30)).toBe('2027-01-30');
  });
});

describe('parcelar', () => {
  it('splits each item by the plan and numbers the installments by the plan', () => {
    const parcelas = parcelar(
      [
        { sequenciaItem: 1, produto: true, valor: 100 },
        { sequenciaItem: 2, produto: false, valor: 50.01 },
      ],
      [
        { sequencia: 1, dias: 30, peso: 50 },
        { sequencia: 2, dias: 60, peso: 50 },
      ],
      '2026-11-01',
      new Set(),
    );
    expect(parcelas).toEqual([
      {
        sequenciaParcela: 1,
        valor: 50,
        vencimento: '2026-12-01',
        vencimentoUtil: '2026-12-01',
        produto: true,
        sequenciaItem: 1,
      },
      {
        sequenciaParcela: 2,
        valor: 50,
        vencimento: '2026-12-31',
        vencimentoUtil: '2026-12-31',
        produto: true,
        sequenciaItem: 1,
      },
      {
        sequenciaParcela: 1,
        valor: 25,
        vencimento: '2026-12-01',
        vencimentoUtil: '2026-12-01',
        produto: false,
        sequenciaItem: 2,
      },
      {
        sequenciaParcela: 2,
        valor: 25.01,
        vencimento: '2026-12-31',
        vencimentoUtil: '2026-12-31',
        produto: false,
        sequenciaItem: 2,
      },
    ]);
  });
});
