ALTER TABLE "runs" ADD COLUMN "source" text DEFAULT 'agent' NOT NULL;--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "external_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "runs_external_idx" ON "runs" USING btree ("source","owner","agent","external_id") WHERE "runs"."external_id" is not null;--> statement-breakpoint
ALTER TABLE "runs" ADD CONSTRAINT "runs_source_check" CHECK ("runs"."source" in ('agent', 'hook', 'mcp'));