CREATE UNIQUE INDEX "historico_aprovacao_agenda_seq" ON "historico_aprovacao_agenda" USING btree ("tenant","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "historico_aprovacao_agenda_item_seq" ON "historico_aprovacao_agenda_item" USING btree ("tenant","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "pre_agenda_log_seq" ON "pre_agenda_log" USING btree ("tenant","seq");