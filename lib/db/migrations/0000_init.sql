CREATE TABLE "audit" (
	"id" text PRIMARY KEY NOT NULL,
	"at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"kind" text NOT NULL,
	"run_id" text,
	"session_id" text,
	"agent_id" text,
	"tool" text,
	"params" jsonb,
	"action" text,
	"reason" text,
	"rule" jsonb,
	"decided_by" text,
	"wait_ms" bigint,
	"details" jsonb
);
--> statement-breakpoint
CREATE TABLE "events" (
	"run_id" text NOT NULL,
	"seq" integer NOT NULL,
	"type" text NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "events_pk" PRIMARY KEY("run_id","seq")
);
--> statement-breakpoint
CREATE TABLE "grants" (
	"id" text PRIMARY KEY NOT NULL,
	"rule" jsonb NOT NULL,
	"scope" text NOT NULL,
	"session_id" text,
	"once" boolean DEFAULT false NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp (3) with time zone,
	"revoked_by" text,
	"consumed_at" timestamp (3) with time zone,
	CONSTRAINT "grants_scope_check" CHECK ("grants"."scope" in ('session', 'global')),
	CONSTRAINT "grants_session_check" CHECK ("grants"."scope" = 'global' or "grants"."session_id" is not null)
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"run_id" text NOT NULL,
	"seq" integer NOT NULL,
	"role" text NOT NULL,
	"content" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "messages_pk" PRIMARY KEY("run_id","seq")
);
--> statement-breakpoint
CREATE TABLE "policy_versions" (
	"version" integer PRIMARY KEY NOT NULL,
	"policy" jsonb NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"note" text
);
--> statement-breakpoint
CREATE TABLE "relays" (
	"id" text PRIMARY KEY NOT NULL,
	"run_id" text NOT NULL,
	"session_id" text NOT NULL,
	"agent_id" text NOT NULL,
	"tool_call_id" text NOT NULL,
	"tool" text NOT NULL,
	"params" jsonb NOT NULL,
	"request" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"response" jsonb,
	"reason" text,
	"decided_by" text,
	"decided_at" timestamp (3) with time zone,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "relays_status_check" CHECK ("relays"."status" in ('pending', 'approved', 'denied', 'expired', 'cancelled'))
);
--> statement-breakpoint
CREATE TABLE "runs" (
	"id" text PRIMARY KEY NOT NULL,
	"session_id" text NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"mode" text,
	"agent" text,
	"model" text,
	"title" text,
	"owner" text,
	"state" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"last_event_seq" integer DEFAULT 0 NOT NULL,
	"last_message_seq" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "runs_status_check" CHECK ("runs"."status" in ('running', 'waiting', 'done', 'failed', 'cancelled'))
);
--> statement-breakpoint
CREATE TABLE "tool_executions" (
	"run_id" text NOT NULL,
	"tool_call_id" text NOT NULL,
	"status" text DEFAULT 'claimed' NOT NULL,
	"result" jsonb,
	"claimed_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp (3) with time zone,
	CONSTRAINT "tool_executions_pk" PRIMARY KEY("run_id","tool_call_id"),
	CONSTRAINT "tool_executions_status_check" CHECK ("tool_executions"."status" in ('claimed', 'done'))
);
--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_at_idx" ON "audit" USING btree ("at","id");--> statement-breakpoint
CREATE INDEX "audit_run_idx" ON "audit" USING btree ("run_id","at");--> statement-breakpoint
CREATE INDEX "audit_tool_idx" ON "audit" USING btree ("tool","at");--> statement-breakpoint
CREATE INDEX "audit_action_idx" ON "audit" USING btree ("action","at");--> statement-breakpoint
CREATE INDEX "audit_decided_by_idx" ON "audit" USING btree ("decided_by","at");--> statement-breakpoint
CREATE INDEX "grants_session_idx" ON "grants" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "grants_scope_idx" ON "grants" USING btree ("scope");--> statement-breakpoint
CREATE INDEX "relays_status_expires_idx" ON "relays" USING btree ("status","expires_at");--> statement-breakpoint
CREATE INDEX "relays_session_status_idx" ON "relays" USING btree ("session_id","status");--> statement-breakpoint
CREATE INDEX "relays_run_status_idx" ON "relays" USING btree ("run_id","status");--> statement-breakpoint
CREATE INDEX "relays_tool_call_idx" ON "relays" USING btree ("tool_call_id");--> statement-breakpoint
CREATE INDEX "runs_created_idx" ON "runs" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "runs_status_created_idx" ON "runs" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "runs_session_idx" ON "runs" USING btree ("session_id");