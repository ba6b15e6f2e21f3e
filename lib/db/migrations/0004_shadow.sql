CREATE TABLE "policy_shadow" (
	"id" text PRIMARY KEY NOT NULL,
	"slot" text DEFAULT 'current' NOT NULL,
	"policy" jsonb NOT NULL,
	"base_version" integer NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"note" text,
	"compared" bigint DEFAULT 0 NOT NULL,
	"same" bigint DEFAULT 0 NOT NULL,
	"dropped" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "policy_shadow_slot_check" CHECK ("policy_shadow"."slot" = 'current')
);
--> statement-breakpoint
CREATE TABLE "policy_shadow_diffs" (
	"id" text PRIMARY KEY NOT NULL,
	"shadow_id" text NOT NULL,
	"at" timestamp (3) with time zone NOT NULL,
	"run_id" text,
	"agent_id" text NOT NULL,
	"tool" text NOT NULL,
	"params" jsonb NOT NULL,
	"live_action" text NOT NULL,
	"shadow_action" text NOT NULL,
	"live" jsonb NOT NULL,
	"shadow" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "policy_shadow_diffs" ADD CONSTRAINT "policy_shadow_diffs_shadow_id_policy_shadow_id_fk" FOREIGN KEY ("shadow_id") REFERENCES "public"."policy_shadow"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "policy_shadow_slot_idx" ON "policy_shadow" USING btree ("slot");--> statement-breakpoint
CREATE INDEX "policy_shadow_diffs_at_idx" ON "policy_shadow_diffs" USING btree ("shadow_id","at","id");--> statement-breakpoint
CREATE INDEX "policy_shadow_diffs_group_idx" ON "policy_shadow_diffs" USING btree ("shadow_id","live_action","shadow_action","tool");