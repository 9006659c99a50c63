DROP INDEX "contacts_tenant_created_idx";--> statement-breakpoint
DROP INDEX "contacts_tenant_updated_idx";--> statement-breakpoint
DROP INDEX "contacts_tenant_email_order_idx";--> statement-breakpoint
DROP INDEX "contacts_tenant_wallet_order_idx";--> statement-breakpoint
DROP INDEX "contacts_tenant_last_name_idx";--> statement-breakpoint
CREATE INDEX "contacts_tenant_created_idx" ON "contacts" USING btree ("tenant_id","created_at","id","status");--> statement-breakpoint
CREATE INDEX "contacts_tenant_updated_idx" ON "contacts" USING btree ("tenant_id","updated_at","id","status");--> statement-breakpoint
CREATE INDEX "contacts_tenant_email_order_idx" ON "contacts" USING btree ("tenant_id",(lower("email") collate "C"),"id","email","status");--> statement-breakpoint
CREATE INDEX "contacts_tenant_wallet_order_idx" ON "contacts" USING btree ("tenant_id",(lower("wallet") collate "C"),"id","wallet","status");--> statement-breakpoint
CREATE INDEX "contacts_tenant_last_name_idx" ON "contacts" USING btree ("tenant_id",(lower("last_name") collate "C"),"id","last_name","status");