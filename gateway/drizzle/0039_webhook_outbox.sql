CREATE TABLE "delivery_event_outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"recipient_id" bigint NOT NULL,
	"type" text NOT NULL,
	"detail" text,
	"at" timestamp with time zone NOT NULL,
	"lease_until" timestamp with time zone,
	"lease_token" uuid
);
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "attempting_until" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "delivery_event_outbox_lease_idx" ON "delivery_event_outbox" USING btree ("lease_until","id");--> statement-breakpoint
-- Every gateway process keeps what a transactional send needs of a template (its row, settings and
-- variables: transactional/template-cache.ts): a change to a template or to its transactional
-- settings is announced on the channel console_transactional ('tenant:<tenant id>', or 'all' after a
-- TRUNCATE), delivered when the transaction commits. Cascades (a tenant removed) fire it too.
CREATE FUNCTION console_transactional_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_LEVEL = 'STATEMENT' THEN
    PERFORM pg_notify('console_transactional', 'all');
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('console_transactional', 'tenant:' || OLD.tenant_id::text);
  ELSE
    PERFORM pg_notify('console_transactional', 'tenant:' || NEW.tenant_id::text);
    IF TG_OP = 'UPDATE' AND OLD.tenant_id IS DISTINCT FROM NEW.tenant_id THEN
      PERFORM pg_notify('console_transactional', 'tenant:' || OLD.tenant_id::text);
    END IF;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER templates_transactional_changed AFTER UPDATE OR DELETE ON templates
  FOR EACH ROW EXECUTE FUNCTION console_transactional_changed();
--> statement-breakpoint
CREATE TRIGGER templates_transactional_truncated AFTER TRUNCATE ON templates
  FOR EACH STATEMENT EXECUTE FUNCTION console_transactional_changed();
--> statement-breakpoint
CREATE TRIGGER transactional_settings_changed AFTER INSERT OR UPDATE OR DELETE ON transactional_settings
  FOR EACH ROW EXECUTE FUNCTION console_transactional_changed();
--> statement-breakpoint
CREATE TRIGGER transactional_settings_truncated AFTER TRUNCATE ON transactional_settings
  FOR EACH STATEMENT EXECUTE FUNCTION console_transactional_changed();
