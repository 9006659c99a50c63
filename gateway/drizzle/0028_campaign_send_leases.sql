-- Sending loses nothing silently (docs/sending.md): a sending process holds a campaign through a lease
-- whose id its claimed rows carry (claim_epoch); a row committed just before the end of its data is
-- 'handing', and one whose answer was never read is 'unconfirmed' (counted in campaigns.unconfirmed).
-- Rows the previous sender left 'sent' (handed over, no answer recorded) are 'unconfirmed' now; its
-- 'sending' rows (claimed, no data ended on a server) go back to the queue.
CREATE TABLE "campaign_send_leases" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"campaign_id" uuid NOT NULL,
	"worker" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "campaign_recipients" DROP CONSTRAINT "campaign_recipients_status_check";--> statement-breakpoint
ALTER TABLE "campaign_recipients" ADD COLUMN "claim_epoch" bigint;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "unconfirmed" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "campaign_send_leases" ADD CONSTRAINT "campaign_send_leases_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "campaign_send_leases_expires_idx" ON "campaign_send_leases" USING btree ("expires_at");--> statement-breakpoint
UPDATE "campaign_recipients" SET "status" = 'unconfirmed', "claimed_by" = NULL, "claimed_at" = NULL WHERE "status" = 'sent';--> statement-breakpoint
UPDATE "campaign_recipients" SET "status" = 'queued', "claimed_by" = NULL, "claimed_at" = NULL, "attempts" = greatest(0, "attempts" - 1) WHERE "status" = 'sending';--> statement-breakpoint
UPDATE "campaigns" c SET "unconfirmed" = u.n FROM (SELECT "campaign_id", count(*)::int AS n FROM "campaign_recipients" WHERE "status" = 'unconfirmed' GROUP BY 1) u WHERE c."id" = u."campaign_id";--> statement-breakpoint
ALTER TABLE "campaign_recipients" ADD CONSTRAINT "campaign_recipients_status_check" CHECK ("campaign_recipients"."status" in ('queued', 'sending', 'handing', 'delivered', 'deferred', 'bounced', 'failed', 'unconfirmed', 'skipped'));