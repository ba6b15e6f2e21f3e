CREATE TABLE "run_leases" (
	"run_id" text PRIMARY KEY NOT NULL,
	"owner" text,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"epoch" integer DEFAULT 1 NOT NULL,
	"acquired_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "run_leases" ADD CONSTRAINT "run_leases_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "run_leases_owner_idx" ON "run_leases" USING btree ("owner");--> statement-breakpoint
CREATE INDEX "run_leases_expires_idx" ON "run_leases" USING btree ("expires_at");