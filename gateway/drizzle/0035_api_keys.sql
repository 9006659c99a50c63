-- API keys (api-keys/schema.ts): a tenant's keys, stored as SHA-256 hashes, and their audit list.
CREATE TABLE "api_key_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"key_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"actor_id" uuid,
	"actor_email" text,
	"ip" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "api_key_events_kind_check" CHECK ("api_key_events"."kind" in ('created', 'first_used', 'revoked', 'expired'))
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"name" text NOT NULL,
	"scope" text NOT NULL,
	"prefix" text NOT NULL,
	"secret_hash" text NOT NULL,
	"created_by" uuid,
	"created_by_email" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	"last_used_ip" text,
	CONSTRAINT "api_keys_scope_check" CHECK ("api_keys"."scope" in ('full', 'sending', 'contacts'))
);
--> statement-breakpoint
ALTER TABLE "api_key_events" ADD CONSTRAINT "api_key_events_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_key_events" ADD CONSTRAINT "api_key_events_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_key_events" ADD CONSTRAINT "api_key_events_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_key_events_key_kind_idx" ON "api_key_events" USING btree ("key_id","kind");--> statement-breakpoint
CREATE INDEX "api_key_events_tenant_created_idx" ON "api_key_events" USING btree ("tenant_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_secret_hash_idx" ON "api_keys" USING btree ("secret_hash");--> statement-breakpoint
CREATE INDEX "api_keys_tenant_created_idx" ON "api_keys" USING btree ("tenant_id","created_at","id");
--> statement-breakpoint
-- The key check caches keys in every gateway process (api-keys/key-auth.ts): a key's revocation,
-- expiry, scope or name changing is announced on console_session as 'tenant:<id>' (the session
-- cache's own message), delivered when the transaction commits. last_used_* writes announce nothing.
CREATE FUNCTION api_keys_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('console_session', 'tenant:' || OLD.tenant_id::text);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER api_keys_session_changed AFTER UPDATE OF revoked_at, expires_at, scope, name OR DELETE ON api_keys
  FOR EACH ROW EXECUTE FUNCTION api_keys_changed();
