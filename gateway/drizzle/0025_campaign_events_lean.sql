ALTER TABLE "campaign_events" DROP CONSTRAINT "campaign_events_recipient_id_campaign_recipients_id_fk";
--> statement-breakpoint
DROP INDEX "campaign_events_campaign_at_idx";