CREATE TABLE "campaign_audience" (
	"campaign_id" uuid NOT NULL,
	"part" integer NOT NULL,
	"last_created_at" timestamp with time zone NOT NULL,
	"last_contact_id" uuid NOT NULL,
	"contact_ids" uuid[] NOT NULL,
	"addresses" text[] NOT NULL,
	"channels" text[] NOT NULL,
	"expanded_at" timestamp with time zone,
	CONSTRAINT "campaign_audience_campaign_id_part_pk" PRIMARY KEY("campaign_id","part")
);
--> statement-breakpoint
ALTER TABLE "campaign_audience" ADD CONSTRAINT "campaign_audience_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "campaign_audience_waiting_idx" ON "campaign_audience" USING btree ("campaign_id","part") WHERE "campaign_audience"."expanded_at" is null;