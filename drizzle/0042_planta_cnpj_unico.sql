-- A plant's CNPJ becomes unique in its tenant (docs/patio.md "The yard model"), and a database that
-- already holds repeated ones must still migrate. First every stored CNPJ as its characters without
-- punctuation, letters upper case (the alphanumeric CNPJ of 2026 has letters in its first 12), an
-- empty one as none. Then, where plants of a tenant share a CNPJ, one keeps it: the active one, else
-- the oldest (created_date, id); the others lose it (null), and their last_modified_by says which
-- CNPJ and which plant kept it, so an operator finds them (entity filter:
-- containing(lastModifiedBy, 'planta_cnpj_unico')) and sets the right one.
UPDATE "patio_planta" SET "cnpj" = nullif(upper(regexp_replace("cnpj", '[^0-9A-Za-z]', '', 'g')), '')
 WHERE "cnpj" ~ '[^0-9A-Z]' OR "cnpj" = '';--> statement-breakpoint
UPDATE "patio_planta" p
   SET "cnpj" = NULL,
       "last_modified_by" = 'migration:planta_cnpj_unico (CNPJ ' || d."cnpj" || ' repetido: ficou com a planta ' || d."mantida" || ')',
       "last_modified_date" = now()
  FROM (SELECT "tenant", "id", "cnpj", first_value("codigo") OVER w AS "mantida", row_number() OVER w AS "n"
          FROM "patio_planta"
         WHERE "cnpj" IS NOT NULL
        WINDOW w AS (PARTITION BY "tenant", "cnpj" ORDER BY "ativo" DESC, "created_date", "id")) d
 WHERE p."tenant" = d."tenant" AND p."id" = d."id" AND d."n" > 1;--> statement-breakpoint
CREATE UNIQUE INDEX "patio_planta_cnpj" ON "patio_planta" USING btree ("tenant","cnpj");