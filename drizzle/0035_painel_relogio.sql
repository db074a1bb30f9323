-- The recount of a vehicle's due reviews (migration `painel`) at a clock given: the refresh job
-- (painel.ts atualizarPainel) recounts at the platform's clock, the same that visaoGeral used to find
-- the rows outdated, so the job refreshes exactly those rows whatever the database's clock says (and
-- tests can fix time). The triggers keep recounting at the database's clock: a row's window of
-- instants makes its count right at any clock inside it, and visaoGeral counts itself outside it.
CREATE FUNCTION oficina_painel_recontar_revisoes(t text, cds bigint[], agora timestamp) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO oficina_painel_veiculo (tenant, cd_veiculo)
    SELECT t, cd FROM unnest(cds) cd WHERE cd IS NOT NULL ORDER BY cd
    ON CONFLICT DO NOTHING;
  PERFORM 1 FROM oficina_painel_veiculo
    WHERE tenant = t AND cd_veiculo = ANY (cds) ORDER BY cd_veiculo FOR UPDATE;
  UPDATE oficina_painel_veiculo p SET revisoes = r.n, revisoes_desde = r.desde, revisoes_ate = r.ate
  FROM (
    SELECT c.cd,
      count(*) FILTER (WHERE x.devida) AS n,
      max(x.alerta_dt) FILTER (WHERE x.devida AND NOT x.por_km) AS desde,
      min(x.alerta_dt) FILTER (WHERE NOT x.devida) AS ate
    FROM unnest(cds) c(cd)
    LEFT JOIN LATERAL (
      SELECT r.alerta_dt,
        coalesce(r.alerta_km <= v.nr_hodometro, false) AS por_km,
        coalesce(r.alerta_km <= v.nr_hodometro OR r.alerta_dt <= agora, false) AS devida
      FROM oficina_revisao r
      LEFT JOIN oficina_veiculo v ON v.tenant = t AND v.cd_veiculo = c.cd
      WHERE r.tenant = t AND r.veiculo = c.cd
    ) x ON true
    WHERE c.cd IS NOT NULL
    GROUP BY c.cd
  ) r
  WHERE p.tenant = t AND p.cd_veiculo = r.cd;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION oficina_painel_recontar_revisoes(t text, cds bigint[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM oficina_painel_recontar_revisoes(t, cds, now() AT TIME ZONE 'UTC');
END
$$;
