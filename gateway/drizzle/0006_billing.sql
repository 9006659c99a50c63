CREATE TABLE "billing_accounts" (
	"tenant_id" uuid PRIMARY KEY NOT NULL,
	"tax_rate" numeric(5, 2) DEFAULT 0 NOT NULL,
	"payment_method_label" text,
	"payment_method_failing" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "billing_accounts_tax_rate_check" CHECK ("billing_accounts"."tax_rate" >= 0 and "billing_accounts"."tax_rate" <= 100)
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"price_id" text,
	"description" text NOT NULL,
	"subtotal_cents" integer NOT NULL,
	"tax_cents" integer NOT NULL,
	"total_cents" integer NOT NULL,
	"status" text NOT NULL,
	"idempotency_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoices_status_check" CHECK ("invoices"."status" in ('paid', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "plan_prices" (
	"price_id" text PRIMARY KEY NOT NULL,
	"plan_id" uuid NOT NULL,
	"option_key" text NOT NULL,
	"position" integer NOT NULL,
	"emails" text NOT NULL,
	"email_limit" integer NOT NULL,
	"period" text NOT NULL,
	"amount_cents" integer NOT NULL,
	CONSTRAINT "plan_prices_period_check" CHECK ("plan_prices"."period" in ('monthly', 'semiAnnual', 'yearly')),
	CONSTRAINT "plan_prices_amount_check" CHECK ("plan_prices"."amount_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"price_id" text NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"period_end" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"scheduled_price_id" text,
	"scheduled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subscriptions_status_check" CHECK ("subscriptions"."status" in ('active', 'canceled')),
	CONSTRAINT "subscriptions_period_check" CHECK ("subscriptions"."period_end" > "subscriptions"."period_start")
);
--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "card_features" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "billing_accounts" ADD CONSTRAINT "billing_accounts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_price_id_plan_prices_price_id_fk" FOREIGN KEY ("price_id") REFERENCES "public"."plan_prices"("price_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_prices" ADD CONSTRAINT "plan_prices_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_price_id_plan_prices_price_id_fk" FOREIGN KEY ("price_id") REFERENCES "public"."plan_prices"("price_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_scheduled_price_id_plan_prices_price_id_fk" FOREIGN KEY ("scheduled_price_id") REFERENCES "public"."plan_prices"("price_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_tenant_idempotency_idx" ON "invoices" USING btree ("tenant_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "invoices_tenant_created_idx" ON "invoices" USING btree ("tenant_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "plan_prices_option_period_idx" ON "plan_prices" USING btree ("option_key","period");--> statement-breakpoint
CREATE INDEX "plan_prices_plan_idx" ON "plan_prices" USING btree ("plan_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_tenant_idx" ON "subscriptions" USING btree ("tenant_id");--> statement-breakpoint
CREATE INDEX "subscriptions_period_end_idx" ON "subscriptions" USING btree ("period_end");