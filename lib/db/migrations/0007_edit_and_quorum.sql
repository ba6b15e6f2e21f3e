CREATE TABLE "relay_approvals" (
	"relay_id" text NOT NULL,
	"user_id" text NOT NULL,
	"role" text NOT NULL,
	"at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "relay_quorums" (
	"relay_id" text PRIMARY KEY NOT NULL,
	"approvals" integer NOT NULL,
	"needed" integer NOT NULL,
	"params" jsonb
);
--> statement-breakpoint
ALTER TABLE "relay_approvals" ADD CONSTRAINT "relay_approvals_relay_id_relays_id_fk" FOREIGN KEY ("relay_id") REFERENCES "public"."relays"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "relay_quorums" ADD CONSTRAINT "relay_quorums_relay_id_relays_id_fk" FOREIGN KEY ("relay_id") REFERENCES "public"."relays"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "relay_approvals_relay_user_idx" ON "relay_approvals" USING btree ("relay_id","user_id");