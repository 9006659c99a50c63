CREATE TABLE "contract_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"contract_id" uuid NOT NULL,
	"tenant_id" uuid NOT NULL,
	"event_name" text NOT NULL,
	"args" jsonb NOT NULL,
	"wallets" text[] NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"block_time" timestamp with time zone NOT NULL,
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "onchain_wallets" (
	"tenant_id" uuid NOT NULL,
	"wallet" text NOT NULL,
	"first_seen_at" timestamp with time zone NOT NULL,
	CONSTRAINT "onchain_wallets_tenant_id_wallet_pk" PRIMARY KEY("tenant_id","wallet")
);
--> statement-breakpoint
CREATE TABLE "token_holdings" (
	"contract_id" uuid NOT NULL,
	"wallet" text NOT NULL,
	"tenant_id" uuid NOT NULL,
	"balance" numeric(78, 0) NOT NULL,
	"updated_block" bigint NOT NULL,
	CONSTRAINT "token_holdings_contract_id_wallet_pk" PRIMARY KEY("contract_id","wallet")
);
--> statement-breakpoint
CREATE TABLE "wallet_events" (
	"event_id" bigint NOT NULL,
	"wallet" text NOT NULL,
	"tenant_id" uuid NOT NULL,
	"contract_id" uuid NOT NULL,
	"event_name" text NOT NULL,
	"block_time" timestamp with time zone NOT NULL,
	CONSTRAINT "wallet_events_event_id_wallet_pk" PRIMARY KEY("event_id","wallet")
);
--> statement-breakpoint
CREATE TABLE "watched_contracts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"chain_id" integer NOT NULL,
	"address" text NOT NULL,
	"name" text NOT NULL,
	"abi" jsonb NOT NULL,
	"events" text[] NOT NULL,
	"start_block" bigint NOT NULL,
	"confirmations" integer DEFAULT 1 NOT NULL,
	"state" text DEFAULT 'catching_up' NOT NULL,
	"last_error" text,
	"error_at" timestamp with time zone,
	"failures" integer DEFAULT 0 NOT NULL,
	"last_block" bigint NOT NULL,
	"last_block_hash" text,
	"head_block" bigint,
	"generation" integer DEFAULT 0 NOT NULL,
	"token_decimals" integer,
	"token_symbol" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "watched_contracts_state_check" CHECK ("watched_contracts"."state" in ('catching_up', 'live', 'error', 'paused')),
	CONSTRAINT "watched_contracts_confirmations_check" CHECK ("watched_contracts"."confirmations" between 1 and 1000)
);
--> statement-breakpoint
ALTER TABLE "contract_events" ADD CONSTRAINT "contract_events_contract_id_watched_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."watched_contracts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "onchain_wallets" ADD CONSTRAINT "onchain_wallets_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "token_holdings" ADD CONSTRAINT "token_holdings_contract_id_watched_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."watched_contracts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_events" ADD CONSTRAINT "wallet_events_event_id_contract_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."contract_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watched_contracts" ADD CONSTRAINT "watched_contracts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watched_contracts" ADD CONSTRAINT "watched_contracts_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "contract_events_log_idx" ON "contract_events" USING btree ("contract_id","tx_hash","log_index");--> statement-breakpoint
CREATE INDEX "contract_events_feed_idx" ON "contract_events" USING btree ("contract_id","block_number","log_index");--> statement-breakpoint
CREATE INDEX "onchain_wallets_seen_idx" ON "onchain_wallets" USING btree ("tenant_id","first_seen_at");--> statement-breakpoint
CREATE INDEX "token_holdings_balance_idx" ON "token_holdings" USING btree ("contract_id","balance");--> statement-breakpoint
CREATE INDEX "wallet_events_rule_idx" ON "wallet_events" USING btree ("contract_id","event_name","wallet","block_time");--> statement-breakpoint
CREATE UNIQUE INDEX "watched_contracts_address_idx" ON "watched_contracts" USING btree ("tenant_id","chain_id",lower("address"));--> statement-breakpoint
CREATE INDEX "watched_contracts_tenant_idx" ON "watched_contracts" USING btree ("tenant_id","created_at");