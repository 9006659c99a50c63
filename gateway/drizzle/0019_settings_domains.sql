CREATE TABLE "sending_domains" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"domain" text NOT NULL,
	"verification_token" text NOT NULL,
	"dkim_selector" text NOT NULL,
	"dkim_private_key" text NOT NULL,
	"dkim_public_key" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"checks" jsonb,
	"verified_at" timestamp with time zone,
	"last_checked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sending_domains_status_check" CHECK ("sending_domains"."status" in ('pending', 'verified', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "default_sender_name" text;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "default_reply_to" text;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "time_zone" text DEFAULT 'UTC' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "time_zone" text;--> statement-breakpoint
ALTER TABLE "sending_domains" ADD CONSTRAINT "sending_domains_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sending_domains_tenant_domain_idx" ON "sending_domains" USING btree ("tenant_id","domain");--> statement-breakpoint
CREATE UNIQUE INDEX "sending_domains_verified_idx" ON "sending_domains" USING btree ("domain") WHERE "sending_domains"."status" = 'verified';