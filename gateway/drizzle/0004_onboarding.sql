CREATE TABLE "communities" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"short_description" text DEFAULT '' NOT NULL,
	"what_you_get" text[] DEFAULT '{}'::text[] NOT NULL,
	"slug" text NOT NULL,
	"logo" text,
	"background" text,
	"priority" integer DEFAULT 0 NOT NULL,
	"show" boolean DEFAULT false NOT NULL,
	"carousel_priority" integer DEFAULT 0 NOT NULL,
	"show_on_carousel" boolean DEFAULT false NOT NULL,
	"public" boolean DEFAULT false NOT NULL,
	"list_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "communities_priority_check" CHECK ("communities"."priority" between 0 and 100),
	CONSTRAINT "communities_carousel_priority_check" CHECK ("communities"."carousel_priority" between 0 and 100)
);
--> statement-breakpoint
CREATE TABLE "pending_signups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"widget_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"subject" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pending_signups_kind_check" CHECK ("pending_signups"."kind" in ('email', 'wallet_challenge'))
);
--> statement-breakpoint
CREATE TABLE "public_throttle" (
	"key" text NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"hits" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "public_throttle_key_window_start_pk" PRIMARY KEY("key","window_start")
);
--> statement-breakpoint
CREATE TABLE "uploads" (
	"file_key" text PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"content_type" text NOT NULL,
	"size" integer,
	"expires_at" timestamp with time zone NOT NULL,
	"stored_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "widgets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"type" text NOT NULL,
	"target_id" uuid NOT NULL,
	"url" text NOT NULL,
	"signups" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "widgets_type_check" CHECK ("widgets"."type" in ('Subscription Widget', 'Login Widget'))
);
--> statement-breakpoint
ALTER TABLE "communities" ADD CONSTRAINT "communities_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "communities" ADD CONSTRAINT "communities_list_id_lists_id_fk" FOREIGN KEY ("list_id") REFERENCES "public"."lists"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pending_signups" ADD CONSTRAINT "pending_signups_widget_id_widgets_id_fk" FOREIGN KEY ("widget_id") REFERENCES "public"."widgets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "widgets" ADD CONSTRAINT "widgets_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "widgets" ADD CONSTRAINT "widgets_target_id_lists_id_fk" FOREIGN KEY ("target_id") REFERENCES "public"."lists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "communities_tenant_idx" ON "communities" USING btree ("tenant_id");--> statement-breakpoint
CREATE UNIQUE INDEX "communities_slug_idx" ON "communities" USING btree (lower("slug"));--> statement-breakpoint
CREATE UNIQUE INDEX "pending_signups_token_idx" ON "pending_signups" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "pending_signups_widget_idx" ON "pending_signups" USING btree ("widget_id","kind","subject");--> statement-breakpoint
CREATE INDEX "uploads_tenant_idx" ON "uploads" USING btree ("tenant_id");--> statement-breakpoint
CREATE INDEX "widgets_tenant_created_idx" ON "widgets" USING btree ("tenant_id","created_at","id");