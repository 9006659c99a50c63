-- A recipient's 'sent' and 'delivered' are the times on its row (sent_at, delivered_at), no longer
-- campaign_events rows. Rows recorded before keep their events; the timeline shows a time from the row
-- only when no event of its kind was stored (campaigns/log/log-store.ts).
ALTER TABLE "campaign_recipients" ADD COLUMN "delivered_at" timestamp with time zone;
