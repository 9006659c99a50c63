CREATE TABLE "automation_counters" (
	"automation_id" uuid NOT NULL,
	"shard" integer NOT NULL,
	"entered" integer DEFAULT 0 NOT NULL,
	"completed" integer DEFAULT 0 NOT NULL,
	"emails_sent" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "automation_counters_automation_id_shard_pk" PRIMARY KEY("automation_id","shard")
);
--> statement-breakpoint
CREATE TABLE "automation_entries" (
	"automation_id" uuid NOT NULL,
	"contact_id" uuid NOT NULL,
	"occurrences" integer NOT NULL,
	"last_entered_at" timestamp with time zone NOT NULL,
	CONSTRAINT "automation_entries_automation_id_contact_id_pk" PRIMARY KEY("automation_id","contact_id")
);
--> statement-breakpoint
CREATE TABLE "automation_journeys" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"automation_id" uuid NOT NULL,
	"tenant_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"contact_id" uuid NOT NULL,
	"occurrence" integer NOT NULL,
	"node_id" text NOT NULL,
	"state" text DEFAULT 'active' NOT NULL,
	"due_at" timestamp with time zone,
	"context" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"generation" integer DEFAULT 0 NOT NULL,
	"lease_until" timestamp with time zone,
	"steps" integer DEFAULT 0 NOT NULL,
	"entered_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "automation_journeys_state_check" CHECK ("automation_journeys"."state" in ('active', 'waiting', 'completed', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "automation_outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"automation_id" uuid NOT NULL,
	"contact_id" uuid NOT NULL,
	"context" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "automation_segment_members" (
	"automation_id" uuid NOT NULL,
	"contact_id" uuid NOT NULL,
	CONSTRAINT "automation_segment_members_automation_id_contact_id_pk" PRIMARY KEY("automation_id","contact_id")
);
--> statement-breakpoint
CREATE TABLE "automation_steps" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"journey_id" bigint NOT NULL,
	"node_id" text NOT NULL,
	"type" text NOT NULL,
	"outcome" text NOT NULL,
	"message_id" uuid,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "automation_versions" (
	"automation_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"graph" jsonb NOT NULL,
	"reentry" jsonb NOT NULL,
	"activated_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "automation_versions_automation_id_version_pk" PRIMARY KEY("automation_id","version")
);
--> statement-breakpoint
CREATE TABLE "automations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"name" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"active_version" integer,
	"draft_trigger" text,
	"trigger_type" text,
	"trigger_key" text,
	"event_cursor" bigint DEFAULT 0 NOT NULL,
	"date_day" text,
	"date_cursor" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "automations_status_check" CHECK ("automations"."status" in ('draft', 'active', 'paused'))
);
--> statement-breakpoint
ALTER TABLE "automation_counters" ADD CONSTRAINT "automation_counters_automation_id_automations_id_fk" FOREIGN KEY ("automation_id") REFERENCES "public"."automations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automation_entries" ADD CONSTRAINT "automation_entries_automation_id_automations_id_fk" FOREIGN KEY ("automation_id") REFERENCES "public"."automations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automation_entries" ADD CONSTRAINT "automation_entries_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automation_journeys" ADD CONSTRAINT "automation_journeys_automation_id_automations_id_fk" FOREIGN KEY ("automation_id") REFERENCES "public"."automations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automation_journeys" ADD CONSTRAINT "automation_journeys_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automation_outbox" ADD CONSTRAINT "automation_outbox_automation_id_automations_id_fk" FOREIGN KEY ("automation_id") REFERENCES "public"."automations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automation_outbox" ADD CONSTRAINT "automation_outbox_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automation_segment_members" ADD CONSTRAINT "automation_segment_members_automation_id_automations_id_fk" FOREIGN KEY ("automation_id") REFERENCES "public"."automations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automation_segment_members" ADD CONSTRAINT "automation_segment_members_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automation_steps" ADD CONSTRAINT "automation_steps_journey_id_automation_journeys_id_fk" FOREIGN KEY ("journey_id") REFERENCES "public"."automation_journeys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automation_versions" ADD CONSTRAINT "automation_versions_automation_id_automations_id_fk" FOREIGN KEY ("automation_id") REFERENCES "public"."automations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automations" ADD CONSTRAINT "automations_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "automation_journeys_occurrence_idx" ON "automation_journeys" USING btree ("automation_id","contact_id","occurrence");--> statement-breakpoint
CREATE INDEX "automation_journeys_due_idx" ON "automation_journeys" USING btree ("due_at") WHERE "automation_journeys"."state" in ('active', 'waiting');--> statement-breakpoint
CREATE INDEX "automation_journeys_log_idx" ON "automation_journeys" USING btree ("automation_id","entered_at");--> statement-breakpoint
CREATE INDEX "automation_outbox_automation_idx" ON "automation_outbox" USING btree ("automation_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "automation_steps_node_idx" ON "automation_steps" USING btree ("journey_id","node_id");--> statement-breakpoint
CREATE INDEX "automations_tenant_idx" ON "automations" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "automations_trigger_idx" ON "automations" USING btree ("trigger_type","trigger_key") WHERE "automations"."status" <> 'draft';--> statement-breakpoint
-- List joins reach automations through their outbox, written in the transaction that adds the member
-- (docs/automations.md, "Triggers"): one statement-level trigger for every way a member is added.
CREATE FUNCTION automation_list_joined() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO automation_outbox (automation_id, contact_id, context)
  SELECT a.id, n.contact_id, jsonb_build_object('list_id', n.list_id)
    FROM joined n
    JOIN automations a ON a.trigger_type = 'list_joined' AND a.trigger_key = n.list_id::text AND a.status <> 'draft';
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER automation_list_joined AFTER INSERT ON list_members
  REFERENCING NEW TABLE AS joined FOR EACH STATEMENT EXECUTE FUNCTION automation_list_joined();
