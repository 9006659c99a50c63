ALTER TABLE "uploads" ADD COLUMN "purpose" text;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "name" text;--> statement-breakpoint
CREATE INDEX "uploads_tenant_purpose_idx" ON "uploads" USING btree ("tenant_id","purpose","stored_at");