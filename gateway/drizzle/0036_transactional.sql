CREATE TABLE "transactional_carriers" (
	"campaign_id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"template_id" uuid NOT NULL,
	"from_email" text NOT NULL,
	"reply_to" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transactional_days" (
	"template_id" uuid NOT NULL,
	"day" date NOT NULL,
	"sent" integer DEFAULT 0 NOT NULL,
	"bounced" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"tenant_id" uuid NOT NULL,
	"last_sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "transactional_days_template_id_day_pk" PRIMARY KEY("template_id","day")
);
--> statement-breakpoint
CREATE TABLE "transactional_idempotency" (
	"tenant_id" uuid NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"status" integer,
	"answer" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "transactional_idempotency_tenant_id_key_pk" PRIMARY KEY("tenant_id","key")
);
--> statement-breakpoint
CREATE TABLE "transactional_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"template_id" uuid NOT NULL,
	"recipient_id" bigint NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transactional_settings" (
	"template_id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"send_to_unsubscribed" boolean DEFAULT true NOT NULL,
	"track_opens" boolean DEFAULT true NOT NULL,
	"track_clicks" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "campaign_recipients_address_idx";--> statement-breakpoint
ALTER TABLE "campaign_recipients" ADD COLUMN "occurrence" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "kind" text DEFAULT 'campaign' NOT NULL;--> statement-breakpoint
ALTER TABLE "transactional_carriers" ADD CONSTRAINT "transactional_carriers_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactional_carriers" ADD CONSTRAINT "transactional_carriers_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactional_carriers" ADD CONSTRAINT "transactional_carriers_template_id_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."templates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactional_days" ADD CONSTRAINT "transactional_days_template_id_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."templates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactional_days" ADD CONSTRAINT "transactional_days_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactional_idempotency" ADD CONSTRAINT "transactional_idempotency_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactional_messages" ADD CONSTRAINT "transactional_messages_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactional_messages" ADD CONSTRAINT "transactional_messages_template_id_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."templates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactional_messages" ADD CONSTRAINT "transactional_messages_recipient_id_campaign_recipients_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."campaign_recipients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactional_settings" ADD CONSTRAINT "transactional_settings_template_id_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."templates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactional_settings" ADD CONSTRAINT "transactional_settings_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "transactional_carriers_sender_idx" ON "transactional_carriers" USING btree ("template_id","from_email","reply_to");--> statement-breakpoint
CREATE INDEX "transactional_days_day_idx" ON "transactional_days" USING btree ("day","tenant_id");--> statement-breakpoint
CREATE INDEX "transactional_idempotency_created_idx" ON "transactional_idempotency" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "transactional_messages_recipient_idx" ON "transactional_messages" USING btree ("recipient_id");--> statement-breakpoint
CREATE INDEX "transactional_messages_template_idx" ON "transactional_messages" USING btree ("template_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "campaign_recipients_address_idx" ON "campaign_recipients" USING btree ("campaign_id","address","occurrence");--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_kind_check" CHECK ("campaigns"."kind" in ('campaign', 'transactional'));