-- Sign-in guessing limits: failures forgiven by a later sign-in from the same address, and each account's
-- known-good addresses (auth/guess-policy.ts). Import uploads in flight, reserved against the tenant's
-- upload limit (audience/import/upload-quota.ts).
CREATE TABLE "import_uploads" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"bytes" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "login_known_addresses" (
	"email" text NOT NULL,
	"address" text NOT NULL,
	"last_success_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "login_known_addresses_email_address_pk" PRIMARY KEY("email","address")
);
--> statement-breakpoint
ALTER TABLE "login_attempts" RENAME COLUMN "account_cleared" TO "forgiven";--> statement-breakpoint
ALTER TABLE "import_uploads" ADD CONSTRAINT "import_uploads_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "import_uploads_tenant_idx" ON "import_uploads" USING btree ("tenant_id");--> statement-breakpoint
CREATE INDEX "login_known_addresses_last_success_idx" ON "login_known_addresses" USING btree ("last_success_at");