CREATE TABLE "mcp_servers" (
	"name" text PRIMARY KEY NOT NULL,
	"config" jsonb NOT NULL,
	"secrets" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_by" text
);
--> statement-breakpoint
CREATE TABLE "mcp_tool_pins" (
	"server" text NOT NULL,
	"tool" text NOT NULL,
	"digest" text NOT NULL,
	"definition" jsonb NOT NULL,
	"pending_digest" text,
	"pending_definition" jsonb,
	"pending_seen_at" timestamp (3) with time zone,
	"accepted_by" text,
	"accepted_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mcp_tool_pins_server_tool_pk" PRIMARY KEY("server","tool")
);
