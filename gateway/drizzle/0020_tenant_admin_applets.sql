CREATE TABLE "applets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"icon" text,
	"manifest_url" text NOT NULL,
	"module" text NOT NULL,
	"plan_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "email_volume_override" integer;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "sending_paused" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "enabled_applets" uuid[] DEFAULT '{}'::uuid[] NOT NULL;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "applets_slug_idx" ON "applets" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "applets_created_at_idx" ON "applets" USING btree ("created_at");--> statement-breakpoint
ALTER TABLE "tenants" ADD CONSTRAINT "tenants_email_volume_override_check" CHECK ("tenants"."email_volume_override" >= 0);