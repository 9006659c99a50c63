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
CREATE INDEX "delivery_event_outbox_lease_idx" ON "delivery_event_outbox" USING btree ("lease_until","id");