DROP INDEX "contacts_tenant_last_name_idx";--> statement-breakpoint
CREATE INDEX "contacts_tenant_email_order_idx" ON "contacts" USING btree ("tenant_id",(lower("email") collate "C"),"id","email");--> statement-breakpoint
CREATE INDEX "contacts_tenant_wallet_order_idx" ON "contacts" USING btree ("tenant_id",(lower("wallet") collate "C"),"id","wallet");--> statement-breakpoint
CREATE INDEX "contacts_tenant_last_name_idx" ON "contacts" USING btree ("tenant_id",(lower("last_name") collate "C"),"id","last_name");