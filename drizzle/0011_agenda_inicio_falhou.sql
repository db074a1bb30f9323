DROP INDEX "agenda_inicio_execucao";--> statement-breakpoint
CREATE INDEX "agenda_inicio_execucao" ON "agenda" USING btree ("tenant","inicio_execucao") WHERE "agenda"."inicio_execucao" = 'FALHOU';