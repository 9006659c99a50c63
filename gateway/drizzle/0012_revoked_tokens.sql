CREATE TABLE "revoked_tokens" (
	"jti" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "revoked_tokens" ADD CONSTRAINT "revoked_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "revoked_tokens_expires_idx" ON "revoked_tokens" USING btree ("expires_at");--> statement-breakpoint
-- A signed-out token is announced to every gateway process: 'revoked:<jti>'.
CREATE FUNCTION console_token_revoked() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('console_session', 'revoked:' || NEW.jti);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER revoked_tokens_announce AFTER INSERT ON revoked_tokens
  FOR EACH ROW EXECUTE FUNCTION console_token_revoked();
