CREATE TABLE "oficina_painel_veiculo" (
	"tenant" text DEFAULT current_setting('ponte.tenant') NOT NULL,
	"cd_veiculo" bigint NOT NULL,
	"pendencias" integer DEFAULT 0 NOT NULL,
	"manutencoes" integer DEFAULT 0 NOT NULL,
	"revisoes" integer DEFAULT 0 NOT NULL,
	"revisoes_desde" timestamp,
	"revisoes_ate" timestamp,
	CONSTRAINT "oficina_painel_veiculo_tenant_cd_veiculo_pk" PRIMARY KEY("tenant","cd_veiculo")
);
--> statement-breakpoint
ALTER TABLE "oficina_painel_veiculo" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE INDEX "oficina_painel_veiculo_ate" ON "oficina_painel_veiculo" USING btree ("tenant","revisoes_ate");--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "oficina_painel_veiculo" AS PERMISSIVE FOR ALL TO "ponte_app" USING ("oficina_painel_veiculo"."tenant" = current_setting('ponte.tenant', true)) WITH CHECK ("oficina_painel_veiculo"."tenant" = current_setting('ponte.tenant', true));--> statement-breakpoint
-- visaoGeral's counts per vehicle code (tables.ts painelVeiculo; docs/oficina.md "How it is fast"),
-- kept here, by the database, on every write: written by hand. A statement's changes are summed per
-- code and added in code order (two statements touching overlapping codes wait, never deadlock):
-- `n = n + d` on a row locked by the update is exact whatever commits meanwhile.
CREATE FUNCTION oficina_painel_somar(ts text[], cds bigint[], dp int[], dm int[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO oficina_painel_veiculo AS p (tenant, cd_veiculo, pendencias, manutencoes)
  SELECT t, cd, coalesce(sum(a), 0), coalesce(sum(b), 0) FROM unnest(ts, cds, dp, dm) u(t, cd, a, b)
  WHERE cd IS NOT NULL GROUP BY 1, 2 HAVING coalesce(sum(a), 0) <> 0 OR coalesce(sum(b), 0) <> 0 ORDER BY 1, 2
  ON CONFLICT (tenant, cd_veiculo) DO UPDATE
  SET pendencias = p.pendencias + excluded.pendencias, manutencoes = p.manutencoes + excluded.manutencoes
$$;
--> statement-breakpoint
-- A review's "due" moves with the clock and the vehicle's odometer, which no +1/−1 can follow: the
-- codes' rows are created if new and locked in code order, then their reviews recounted by a
-- statement that starts after the locks are held. In READ COMMITTED it sees every writer of these
-- vehicles that committed before; a writer still running recounts after this one commits.
CREATE FUNCTION oficina_painel_recontar_revisoes(t text, cds bigint[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  agora timestamp := now() AT TIME ZONE 'UTC';
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
-- The triggers: what a statement changed, from its transition tables (per tenant).
CREATE FUNCTION oficina_painel_pendencias() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM oficina_painel_somar(array_agg(tenant), array_agg(veiculo), array_agg(1), array_agg(0)) FROM novos;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM oficina_painel_somar(array_agg(tenant), array_agg(veiculo), array_agg(-1), array_agg(0)) FROM antigos;
  ELSE
    PERFORM oficina_painel_somar(array_agg(tenant), array_agg(veiculo), array_agg(d), array_agg(0))
    FROM (SELECT tenant, veiculo, -1 AS d FROM antigos UNION ALL SELECT tenant, veiculo, 1 FROM novos) x;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION oficina_painel_manutencoes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM oficina_painel_somar(array_agg(tenant), array_agg(veiculo), array_agg(0), array_agg(d))
    FROM (SELECT tenant, veiculo, coalesce(in_status IN ('ABERTA', 'EM_ANDAMENTO'), false)::int AS d FROM novos) x;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM oficina_painel_somar(array_agg(tenant), array_agg(veiculo), array_agg(0), array_agg(d))
    FROM (SELECT tenant, veiculo, -coalesce(in_status IN ('ABERTA', 'EM_ANDAMENTO'), false)::int AS d FROM antigos) x;
  ELSE
    PERFORM oficina_painel_somar(array_agg(tenant), array_agg(veiculo), array_agg(0), array_agg(d))
    FROM (
      SELECT tenant, veiculo, -coalesce(in_status IN ('ABERTA', 'EM_ANDAMENTO'), false)::int AS d FROM antigos
      UNION ALL SELECT tenant, veiculo, coalesce(in_status IN ('ABERTA', 'EM_ANDAMENTO'), false)::int FROM novos
    ) x;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION oficina_painel_revisoes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM oficina_painel_recontar_revisoes(tenant, array_agg(DISTINCT veiculo)) FROM novos GROUP BY tenant;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM oficina_painel_recontar_revisoes(tenant, array_agg(DISTINCT veiculo)) FROM antigos GROUP BY tenant;
  ELSE
    PERFORM oficina_painel_recontar_revisoes(tenant, array_agg(DISTINCT veiculo))
    FROM (SELECT tenant, veiculo FROM antigos UNION SELECT tenant, veiculo FROM novos) x GROUP BY tenant;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A vehicle's odometer decides its reviews' due state by km, under its code.
CREATE FUNCTION oficina_painel_veiculos() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM oficina_painel_recontar_revisoes(tenant, array_agg(DISTINCT cd_veiculo)) FROM novos GROUP BY tenant;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM oficina_painel_recontar_revisoes(tenant, array_agg(DISTINCT cd_veiculo)) FROM antigos GROUP BY tenant;
  ELSE
    PERFORM oficina_painel_recontar_revisoes(tenant, array_agg(DISTINCT cd))
    FROM (
      SELECT o.tenant, unnest(ARRAY[o.cd_veiculo, n.cd_veiculo]) AS cd
      FROM antigos o JOIN novos n ON n.tenant = o.tenant AND n.id = o.id
      WHERE o.cd_veiculo IS DISTINCT FROM n.cd_veiculo OR o.nr_hodometro IS DISTINCT FROM n.nr_hodometro
    ) x GROUP BY tenant;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER oficina_painel_ins AFTER INSERT ON oficina_pendencia REFERENCING NEW TABLE AS novos FOR EACH STATEMENT EXECUTE FUNCTION oficina_painel_pendencias();--> statement-breakpoint
CREATE TRIGGER oficina_painel_upd AFTER UPDATE ON oficina_pendencia REFERENCING OLD TABLE AS antigos NEW TABLE AS novos FOR EACH STATEMENT EXECUTE FUNCTION oficina_painel_pendencias();--> statement-breakpoint
CREATE TRIGGER oficina_painel_del AFTER DELETE ON oficina_pendencia REFERENCING OLD TABLE AS antigos FOR EACH STATEMENT EXECUTE FUNCTION oficina_painel_pendencias();
--> statement-breakpoint
CREATE TRIGGER oficina_painel_ins AFTER INSERT ON oficina_revisao REFERENCING NEW TABLE AS novos FOR EACH STATEMENT EXECUTE FUNCTION oficina_painel_revisoes();--> statement-breakpoint
CREATE TRIGGER oficina_painel_upd AFTER UPDATE ON oficina_revisao REFERENCING OLD TABLE AS antigos NEW TABLE AS novos FOR EACH STATEMENT EXECUTE FUNCTION oficina_painel_revisoes();--> statement-breakpoint
CREATE TRIGGER oficina_painel_del AFTER DELETE ON oficina_revisao REFERENCING OLD TABLE AS antigos FOR EACH STATEMENT EXECUTE FUNCTION oficina_painel_revisoes();
--> statement-breakpoint
CREATE TRIGGER oficina_painel_ins AFTER INSERT ON oficina_manutencao REFERENCING NEW TABLE AS novos FOR EACH STATEMENT EXECUTE FUNCTION oficina_painel_manutencoes();--> statement-breakpoint
CREATE TRIGGER oficina_painel_upd AFTER UPDATE ON oficina_manutencao REFERENCING OLD TABLE AS antigos NEW TABLE AS novos FOR EACH STATEMENT EXECUTE FUNCTION oficina_painel_manutencoes();--> statement-breakpoint
CREATE TRIGGER oficina_painel_del AFTER DELETE ON oficina_manutencao REFERENCING OLD TABLE AS antigos FOR EACH STATEMENT EXECUTE FUNCTION oficina_painel_manutencoes();
--> statement-breakpoint
CREATE TRIGGER oficina_painel_ins AFTER INSERT ON oficina_veiculo REFERENCING NEW TABLE AS novos FOR EACH STATEMENT EXECUTE FUNCTION oficina_painel_veiculos();--> statement-breakpoint
CREATE TRIGGER oficina_painel_upd AFTER UPDATE ON oficina_veiculo REFERENCING OLD TABLE AS antigos NEW TABLE AS novos FOR EACH STATEMENT EXECUTE FUNCTION oficina_painel_veiculos();--> statement-breakpoint
CREATE TRIGGER oficina_painel_del AFTER DELETE ON oficina_veiculo REFERENCING OLD TABLE AS antigos FOR EACH STATEMENT EXECUTE FUNCTION oficina_painel_veiculos();
--> statement-breakpoint
-- The fleets already stored.
INSERT INTO oficina_painel_veiculo (tenant, cd_veiculo, pendencias, manutencoes)
SELECT tenant, cd, sum(p), sum(m) FROM (
  SELECT tenant, veiculo AS cd, 1 AS p, 0 AS m FROM oficina_pendencia
  UNION ALL SELECT tenant, veiculo, 0, 1 FROM oficina_manutencao WHERE in_status IN ('ABERTA', 'EM_ANDAMENTO')
) x WHERE cd IS NOT NULL GROUP BY 1, 2;
--> statement-breakpoint
SELECT oficina_painel_recontar_revisoes(tenant, array_agg(DISTINCT cd)) FROM (
  SELECT tenant, cd_veiculo AS cd FROM oficina_veiculo UNION SELECT tenant, veiculo FROM oficina_revisao
) x GROUP BY tenant;
