import { DateTime, Double, Enum, Int64, Record, Type } from '../../../platform/core/schema.ts';

// The records of tms/oficina (spec 001 §2.9), each declared once: the queries' outputs, the save
// and remove operations' inputs (docs/oficina.md "Saving and removing") and the entities' fields
// are built from these. Values the spec leaves open (TipoStatusManutencao, the vehicle's statuses)
// are the project's design, in docs/oficina.md.

/** TipoStatusManutencao (spec 001 §2.9: "values not shown"): a maintenance is open until CONCLUIDA or CANCELADA. */
export const STATUS_MANUTENCAO = ['ABERTA', 'EM_ANDAMENTO', 'CONCLUIDA', 'CANCELADA'] as const;
/** Also written in migration `painel`'s oficina_painel_manutencoes and the index oficina_manutencao_aberta. */
export const STATUS_MANUTENCAO_ABERTA = ['ABERTA', 'EM_ANDAMENTO'] as const;
/** Where the vehicle is: running, or in the workshop's garage (visaoGeral's rodando / garagem). */
export const STATUS_OFICINA = ['RODANDO', 'GARAGEM'] as const;
/** INATIVO: out of the fleet (sold, scrapped): not counted as available by visaoGeral. */
export const STATUS_VEICULO = ['ATIVO', 'INATIVO'] as const;

export const TipoStatusManutencao = () =>
  Record(
    'TipoStatusManutencao',
    Enum(STATUS_MANUTENCAO, { description: 'ABERTA, EM_ANDAMENTO (open), CONCLUIDA, CANCELADA (closed)' }),
  );
export const StatusOficina = () => Enum(STATUS_OFICINA, { description: 'RODANDO or GARAGEM' });
export const StatusVeiculo = () =>
  Enum(STATUS_VEICULO, { description: 'ATIVO or INATIVO (out of the fleet)' });

const opt = Type.Optional;
/** A text field of at most `max` characters; `min` 1 for codes. */
export const Str = (max: number, description?: string, min = 0) =>
  Type.String({
    maxLength: max,
    ...(min ? { minLength: min } : {}),
    ...(description ? { description } : {}),
  });
/** A code of the ERP: a positive int64. */
export const Cd = (description?: string) => Int64({ minimum: 0, ...(description ? { description } : {}) });
export const Placa = () => Str(10, 'licence plate', 1);
/** A flag of the ERP: 0 or 1. */
export const Flag = (description: string) => Int64({ minimum: 0, maximum: 1, description });
/** Durations as the ERP writes them (qtTempoPrevisto of pending items and reviews: "HH:MM"). */
export const Tempo = () => Str(20, 'planned time as the ERP writes it (e.g. 02:30)');

export const FilialRec = Record('FilialRec', Type.Object({ cdEmpresa: Int64(), dsEmpresa: Type.String() }));

export const PendenciaRec = Record(
  'PendenciaRec',
  Type.Object({
    cdPendenciapk: opt(Type.String()),
    cdPendencia: opt(Int64()),
    cdEmpresa: opt(Int64()),
    cdVeiculo: opt(Int64()),
    nrPlaca: opt(Type.String()),
    dsPendencia: opt(Type.String()),
    qtTempoPrevisto: opt(Type.String()),
    inPrioridade: opt(Int64()),
    inNotificacao: opt(Int64()),
    dsMovimentacao: opt(Type.String()),
    hrMovimentacao: opt(Type.String()),
    dtAberturaPen: opt(Type.String()),
    qtDias: opt(Double({ description: 'days since dtAberturaPen (fractional)' })),
    cdSetor: opt(Int64()),
  }),
);

export const RevisaoRec = Record(
  'RevisaoRec',
  Type.Object({
    cdRevisao: opt(Type.String()),
    cdVeiculo: opt(Int64()),
    dtPrevisao: opt(Type.String()),
    nrPlaca: opt(Type.String()),
    dsRevisao: opt(Type.String()),
    qtTempoPrevisto: opt(Type.String()),
    nrHodometro: opt(Double({ description: 'odometer reading (km) the review is due at' })),
    qtKmAviso: opt(Int64()),
    nrDias: opt(Int64()),
    inCondicao: opt(Int64()),
    nrHodHor: opt(Double()),
    hrMovimentacao: opt(Type.String()),
    dsMovimentacao: opt(Type.String()),
    kmDiferenca: opt(Double({ description: "km left to the review: nrHodometro − the vehicle's odometer" })),
    cdEmpresa: opt(Int64()),
    cdSetor: opt(Int64()),
  }),
);

export const ManutencaoRec = Record(
  'ManutencaoRec',
  Type.Object({
    cdManutencao: opt(Type.String()),
    dsManutencao: opt(Type.String()),
    qtTempoPrevisto: opt(Double()),
    qtTempoRealizado: opt(Double()),
    nrOS: opt(Int64()),
    dtAberturaOS: opt(Type.String()),
    cdVeiculo: opt(Int64()),
    nrPlaca: opt(Type.String()),
    cdEmpresa: opt(Int64()),
    cdPlanoServico: opt(Int64()),
    qtDiferenca: opt(Double({ description: 'qtTempoRealizado − qtTempoPrevisto' })),
    inStatus: opt(TipoStatusManutencao()),
    dtPrevisao: opt(Type.String()),
    dtInicio: opt(Type.String()),
  }),
);

export const CentroCustoRec = Record(
  'CentroCustoRec',
  Type.Object({
    cdCentroCusto: opt(Int64()),
    dsCentroCusto: opt(Type.String()),
    inExibePainelOfi: opt(Int64()),
    rodando: opt(Int64()),
    garagem: opt(Int64()),
    total: opt(Int64()),
  }),
);

export const RsalvaSetor = Record('RsalvaSetor', Type.Object({ cdSetor: Cd(), dsSetor: opt(Str(100)) }));

export const VisaoRec = Record(
  'VisaoRec',
  Type.Object({
    rodando: opt(Int64()),
    garagem: opt(Int64()),
    centrocusto: Type.Array(CentroCustoRec),
  }),
);

export const VisaoGeralRec = Record(
  'VisaoGeralRec',
  Type.Object({ disponiveis: VisaoRec, pendencias: VisaoRec, revisoes: VisaoRec, manutencoes: VisaoRec }),
);

export const VeiculoRec = Record(
  'VeiculoRec',
  Type.Object({
    nrPlaca: Placa(),
    cdVeiculo: opt(Cd('absent: the plate finds the vehicle, or a new code is given')),
    dsStatusOficina: opt(StatusOficina()),
    dsStatus: opt(StatusVeiculo()),
    cdEmpresa: opt(Cd('branch (filial.cdEmpresa)')),
    dsMovimentacao: opt(Str(200)),
    hrMovimentacao: opt(DateTime()),
    nrHodometro: opt(Double({ minimum: 0 })),
    cdCentroCusto: opt(Cd('cost centre (centroCusto.cdCentroCusto)')),
    dsCentroCusto: opt(Str(100, 'ignored on save: the cost centre keeps its own')),
  }),
);

export const RetornoSalvaListaRec = Record(
  'RetornoSalvaListaRec',
  Type.Object({ nrPlaca: Type.String(), cdVeiculo: opt(Int64()) }),
);

export const Rerros = Record('Rerros', Type.Object({ ok: Type.Boolean(), dsErro: Type.String() }));

export const RrsalvaManut = Record(
  'RrsalvaManut',
  Type.Object({
    cdManutencao: Str(40, 'the maintenance: updated when it exists, created otherwise', 1),
    dsManutencao: opt(Str(200)),
    qtTempoPrevisto: opt(Double({ minimum: 0 })),
    qtTempoRealizado: opt(Double({ minimum: 0 })),
    nrOS: opt(Cd('work order number')),
    dtAberturaOS: opt(DateTime()),
    cdVeiculo: opt(Cd('the vehicle (veiculo.cdVeiculo)')),
    cdEmpresa: opt(Cd()),
    cdPlanoServico: opt(Cd()),
    inStatus: opt(TipoStatusManutencao()),
    dtInicio: opt(DateTime()),
    cdSetor: opt(Cd('the sector (setor.cdSetor)')),
  }),
);

export const RrsalvaCentroCusto = Record(
  'RrsalvaCentroCusto',
  Type.Object({
    cdCentroCusto: Cd(),
    dsCentroCusto: opt(Str(100)),
    inExibePainelOfi: opt(Flag('1: shown in visaoGeral (default 1)')),
  }),
);

export const RremoveRevisao = Record('RremoveRevisao', Type.Object({ cdRevisao: Str(40, undefined, 1) }));
export const RremoveCentroCusto = Record('RremoveCentroCusto', Type.Object({ cdCentroCusto: Cd() }));
export const RremoveSetor = Record('RremoveSetor', Type.Object({ cdSetor: Cd() }));
export const RremoveManutencao = Record(
  'RremoveManutencao',
  Type.Object({ cdManutencao: Str(40, undefined, 1) }),
);
export const RremovePendencia = Record(
  'RremovePendencia',
  Type.Object({ cdPendenciaPk: Str(40, undefined, 1) }),
);
export const RremoveVeiculo = Record(
  'RremoveVeiculo',
  Type.Object({
    cdVeiculo: opt(Cd('the vehicle, or')),
    nrPlaca: opt(Str(10, 'its plate (one of the two)', 1)),
  }),
);
