-- Uploads of users without a tenant (onboarding/schema.ts): a global admin's avatar belongs to the
-- user; every other upload still belongs to a tenant. Exactly one owner per upload.
ALTER TABLE "uploads" ALTER COLUMN "tenant_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "user_id" uuid;--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "uploads_user_idx" ON "uploads" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_one_owner_check" CHECK (num_nonnulls("uploads"."tenant_id", "uploads"."user_id") = 1);