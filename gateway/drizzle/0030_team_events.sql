-- Team activity (team/schema.ts, auth/team-events.ts): who changed a community's team, and when.
CREATE TABLE "team_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"actor_id" uuid,
	"actor_email" text,
	"subject_id" uuid,
	"subject_email" text NOT NULL,
	"preset" text,
	"previous_email" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "team_events_kind_check" CHECK ("team_events"."kind" in ('invited', 'access_changed', 'removed', 'impersonated', 'password_changed', 'email_changed'))
);
--> statement-breakpoint
ALTER TABLE "team_events" ADD CONSTRAINT "team_events_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_events" ADD CONSTRAINT "team_events_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_events" ADD CONSTRAINT "team_events_subject_id_users_id_fk" FOREIGN KEY ("subject_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "team_events_tenant_created_idx" ON "team_events" USING btree ("tenant_id","created_at","id");