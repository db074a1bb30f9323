-- Searches are case- and accent-insensitive (src/platform/core/db/search.ts): `ponte_fold` is
-- PostgreSQL's unaccent, then lower case, declared IMMUTABLE so that indexes and generated columns
-- can use it (search.ts FOLD_FUNCTION holds the same text; search.test.ts checks it).
CREATE EXTENSION IF NOT EXISTS unaccent;--> statement-breakpoint
CREATE OR REPLACE FUNCTION ponte_fold(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$ SELECT lower(public.unaccent('public.unaccent'::regdictionary, $1)) $$;--> statement-breakpoint
-- The search view selects the column rebuilt below: dropped first, created again after.
DROP VIEW "public"."agenda_busca";--> statement-breakpoint
DROP INDEX "com_pessoa_codigo_trgm";--> statement-breakpoint
DROP INDEX "com_pessoa_nome_trgm";--> statement-breakpoint
DROP INDEX "com_pessoa_nome_fantasia_trgm";--> statement-breakpoint
DROP INDEX "com_pessoa_endereco_logradouro_trgm";--> statement-breakpoint
DROP INDEX "com_pessoa_endereco_bairro_trgm";--> statement-breakpoint
DROP INDEX "com_pessoa_endereco_cep_trgm";--> statement-breakpoint
DROP INDEX "agenda_descricao_trgm";--> statement-breakpoint
DROP INDEX "agenda_external_tenant_nome_trgm";--> statement-breakpoint
DROP INDEX "pre_agenda_descricao_trgm";--> statement-breakpoint
DROP INDEX "pre_agenda_observacao_trgm";--> statement-breakpoint
DROP INDEX "patio_area_descricao_trgm";--> statement-breakpoint
DROP INDEX "patio_planta_nome_trgm";--> statement-breakpoint
DROP INDEX "patio_vaga_descricao_trgm";--> statement-breakpoint
DROP INDEX "patio_motorista_nome_trgm";--> statement-breakpoint
ALTER TABLE "agenda" drop column "busca";--> statement-breakpoint
ALTER TABLE "agenda" ADD COLUMN "busca" text GENERATED ALWAYS AS (ponte_fold(coalesce("descricao", '') || E'\x1f' || coalesce("chave_integracao", '') || E'\x1f' || coalesce("codigo_agrupador", ''))) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "com_pessoa_codigo_trgm" ON "com_pessoa" USING gin (ponte_fold("codigo") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "com_pessoa_nome_trgm" ON "com_pessoa" USING gin (ponte_fold("nome") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "com_pessoa_nome_fantasia_trgm" ON "com_pessoa" USING gin (ponte_fold("nome_fantasia") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "com_pessoa_endereco_logradouro_trgm" ON "com_pessoa_endereco" USING gin (ponte_fold("logradouro") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "com_pessoa_endereco_bairro_trgm" ON "com_pessoa_endereco" USING gin (ponte_fold("bairro") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "com_pessoa_endereco_cep_trgm" ON "com_pessoa_endereco" USING gin (ponte_fold("cep") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "agenda_descricao_trgm" ON "agenda" USING gin (ponte_fold("descricao") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "agenda_external_tenant_nome_trgm" ON "agenda_external_tenant" USING gin (ponte_fold("nome") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "pre_agenda_descricao_trgm" ON "pre_agenda" USING gin (ponte_fold("descricao") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "pre_agenda_observacao_trgm" ON "pre_agenda" USING gin (ponte_fold("observacao") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "patio_area_descricao_trgm" ON "patio_area" USING gin (ponte_fold("descricao") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "patio_planta_nome_trgm" ON "patio_planta" USING gin (ponte_fold("nome") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "patio_vaga_descricao_trgm" ON "patio_vaga" USING gin (ponte_fold("descricao") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "patio_motorista_nome_trgm" ON "patio_motorista" USING gin (ponte_fold("nome") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "agenda_busca_trgm" ON "agenda" USING gin ("busca" gin_trgm_ops);--> statement-breakpoint
CREATE VIEW "public"."agenda_busca" WITH (check_option = cascaded) AS (select "id", "tenant", "created_by", "created_date", "last_modified_by", "last_modified_date", "codigo", "chave_integracao", "codigo_agrupador", "descricao", "data_esperada", "planta_id", "tipo_agendamento_id", "veiculo_id", "composicao_veiculo_id", "motorista_id", "parceiro_id", "observacao", "custom", "unscheduled", "status", "circuito_id", "sequencia_inicial_id", "vaga_inicial_id", "servico_integracao", "motivo_de_falha", "inicio_execucao", "execucao_circuito_id", "associacao_agendamento", "fim_previsto", "busca" from "agenda" where "agenda"."tenant" = current_setting('ponte.tenant', true));